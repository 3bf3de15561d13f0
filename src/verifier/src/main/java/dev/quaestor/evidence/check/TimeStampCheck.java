package dev.quaestor.evidence.check;

import dev.quaestor.evidence.Anchor;
import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.TreeHash;
import java.io.IOException;
import java.io.InputStream;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.CertPathBuilder;
import java.security.cert.CertStore;
import java.security.cert.CertificateFactory;
import java.security.cert.CollectionCertStoreParameters;
import java.security.cert.PKIXBuilderParameters;
import java.security.cert.PKIXCertPathBuilderResult;
import java.security.cert.TrustAnchor;
import java.security.cert.X509CertSelector;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.bouncycastle.asn1.nist.NISTObjectIdentifiers;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cms.CMSException;
import org.bouncycastle.cms.CMSSignedData;
import org.bouncycastle.cms.jcajce.JcaSimpleSignerInfoVerifierBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.tsp.GenTimeAccuracy;
import org.bouncycastle.tsp.TSPException;
import org.bouncycastle.tsp.TimeStampToken;
import org.bouncycastle.tsp.TimeStampTokenInfo;

/**
 * Checks an RFC 3161 time-stamp token over a checkpoint (docs/audit-format.md, section 3.1), offline: (1) its message
 * imprint is SHA-256 of the checkpoint's text; (2) its signature verifies with the certificate it names (RFC 3161 and
 * 5816: signing-certificate attribute, critical time-stamping key usage, valid at the token's time); (3) that
 * certificate chains through the token's certificates to a pinned TSA root at the token's time (no revocation check:
 * nothing goes to the network); (4) its time is no earlier than the checkpoint's (to the second, widened by the stated
 * accuracy) and at most {@code maxDelay} after it. BouncyCastle reads CMS and TSP; the JDK checks signatures and paths.
 * Thread-safe.
 */
public final class TimeStampCheck {

    /** A token that passed: when the TSA says it saw the checkpoint, and which TSA. */
    public record Stamp(Instant time, String tsa) {
    }

    /** The default {@code --tsa-max-delay}. */
    public static final Duration MAX_DELAY = Duration.ofHours(1);

    private final Set<TrustAnchor> roots;
    private final List<X509Certificate> rootCertificates;
    private final Duration maxDelay;
    /** Signer certificates already chained to a root (SHA-256 of the certificate), and when that chain is valid. */
    private final Map<String, Instant[]> chained = new ConcurrentHashMap<>();

    public TimeStampCheck(Collection<X509Certificate> roots, Duration maxDelay) {
        if (roots.isEmpty()) {
            throw new IllegalArgumentException("no TSA root to trust");
        }
        this.rootCertificates = List.copyOf(roots);
        this.roots = roots.stream().map(c -> new TrustAnchor(c, null)).collect(Collectors.toUnmodifiableSet());
        this.maxDelay = maxDelay;
    }

    /** The X.509 certificates in PEM (or DER) text, such as a file of pinned TSA roots. */
    public static List<X509Certificate> certificates(InputStream in) throws GeneralSecurityException {
        var out = new ArrayList<X509Certificate>();
        CertificateFactory.getInstance("X.509").generateCertificates(in).forEach(c -> out.add((X509Certificate) c));
        return out;
    }

    public Duration maxDelay() {
        return maxDelay;
    }

    /** The pinned roots, for messages. */
    public List<String> roots() {
        return rootCertificates.stream().map(c -> c.getSubjectX500Principal().getName()).toList();
    }

    /** Checks {@code token} against the checkpoint of note text {@code text} and time {@code signed}: its time and TSA. */
    public Stamp check(byte[] token, String text, Instant signed) throws Refusal {
        return check(this, token, text, signed);
    }

    /** With {@code stamps}, the four checks; without (no --tsa-ca), check (1) alone, which needs no root, and null. */
    public static Stamp check(TimeStampCheck stamps, byte[] token, String text, Instant signed) throws Refusal {
        try {
            TimeStampToken t = read(token, text);
            return stamps == null ? null : stamps.checkToken(t, signed);
        } catch (RuntimeException e) {
            // BouncyCastle reads parts of a token lazily, so damage can surface anywhere as an unchecked exception.
            throw new Refusal("is not an RFC 3161 time-stamp token: it was damaged (" + e.getMessage() + ")",
                    "an RFC 3161 time-stamp token", "bytes that are not one");
        }
    }

    /** The token, read, if its message imprint is the SHA-256 of {@code text} (check 1). */
    private static TimeStampToken read(byte[] token, String text) throws Refusal {
        TimeStampToken t;
        try {
            t = new TimeStampToken(new CMSSignedData(token));
        } catch (CMSException | TSPException | IOException | RuntimeException e) {
            throw new Refusal("is not an RFC 3161 time-stamp token: it was damaged", "an RFC 3161 time-stamp token", "bytes that are not one");
        }
        TimeStampTokenInfo info = t.getTimeStampInfo();
        if (!NISTObjectIdentifiers.id_sha256.equals(info.getMessageImprintAlgOID())
                || !MessageDigest.isEqual(info.getMessageImprintDigest(), Anchor.imprint(text))) {
            throw new Refusal("is over a different text: its message imprint is not the SHA-256 of this checkpoint",
                    "SHA-256 " + Hex.of(Anchor.imprint(text)), info.getMessageImprintAlgOID() + " "
                    + Hex.of(info.getMessageImprintDigest()));
        }
        return t;
    }

    private Stamp checkToken(TimeStampToken t, Instant signed) throws Refusal {
        TimeStampTokenInfo info = t.getTimeStampInfo();
        Collection<X509CertificateHolder> named = t.getCertificates().getMatches(t.getSID());
        if (named.isEmpty()) {
            throw new Refusal("does not carry its TSA's certificate, so it cannot be checked (tokens must be requested with certReq)",
                    "the certificate of the token's signer", "none");
        }
        X509CertificateHolder holder = named.iterator().next();
        String tsa = holder.getSubject().toString();
        try {
            t.validate(new JcaSimpleSignerInfoVerifierBuilder().build(holder));
        } catch (TSPException | OperatorCreationException | GeneralSecurityException | RuntimeException e) {
            throw new Refusal("does not verify: " + e.getMessage() + " (TSA " + tsa + ")", "a signature by " + tsa, e.getMessage());
        }
        Instant time = info.getGenTime().toInstant();
        chain(holder, t, time, tsa);
        Duration accuracy = accuracy(info.getGenTimeAccuracy());
        if (signed == null) {
            throw new Refusal("cannot be placed in time: the checkpoint has no time line", "a time line", "none");
        }
        if (time.plus(accuracy).isBefore(signed.truncatedTo(ChronoUnit.SECONDS))) {
            throw new Refusal("was made at " + time + ", before the checkpoint's own time " + signed
                    + ": the checkpoint's time is not when it was signed", "at or after " + signed, time.toString());
        }
        if (time.minus(accuracy).isAfter(signed.plus(maxDelay))) {
            throw new Refusal("was made at " + time + ", " + words(Duration.between(signed, time)) + " after the checkpoint's time "
                    + signed + "; a checkpoint is anchored within " + words(maxDelay)
                    + " (--tsa-max-delay): a later token does not show when it was signed", "by " + signed.plus(maxDelay),
                    time.toString());
        }
        return new Stamp(time, tsa);
    }

    /** The signer certificate chains, through the token's certificates, to a pinned root at {@code time}. */
    private void chain(X509CertificateHolder holder, TimeStampToken t, Instant time, String tsa) throws Refusal {
        try {
            var converter = new JcaX509CertificateConverter();
            X509Certificate signer = converter.getCertificate(holder);
            String key = Hex.of(TreeHash.sha256(signer.getEncoded()));
            Instant[] valid = chained.get(key);
            if (valid != null && !time.isBefore(valid[0]) && !time.isAfter(valid[1])) {
                return;
            }
            if (rootCertificates.contains(signer)) {
                chained.put(key, new Instant[] {signer.getNotBefore().toInstant(), signer.getNotAfter().toInstant()});
                return;
            }
            var certs = new ArrayList<X509Certificate>();
            for (X509CertificateHolder h : t.getCertificates().getMatches(null)) {
                certs.add(converter.getCertificate(h));
            }
            var target = new X509CertSelector();
            target.setCertificate(signer);
            var params = new PKIXBuilderParameters(roots, target);
            params.setRevocationEnabled(false);
            params.setDate(Date.from(time));
            params.addCertStore(CertStore.getInstance("Collection", new CollectionCertStoreParameters(certs)));
            var result = (PKIXCertPathBuilderResult) CertPathBuilder.getInstance("PKIX").build(params);
            var path = result.getCertPath().getCertificates().stream().map(c -> (X509Certificate) c).toList();
            chained.put(key, new Instant[] {path.stream().map(c -> c.getNotBefore().toInstant()).max(Instant::compareTo)
                    .orElse(Instant.MIN), path.stream().map(c -> c.getNotAfter().toInstant()).min(Instant::compareTo).orElse(Instant.MAX)});
        } catch (GeneralSecurityException e) {
            throw new Refusal("is from a TSA whose certificate (" + tsa + ") does not chain to a pinned TSA root (--tsa-ca) at the"
                    + " token's time " + time, "a chain to " + String.join("; ", roots()), tsa);
        }
    }

    private static Duration accuracy(GenTimeAccuracy a) {
        return a == null ? Duration.ZERO
                : Duration.ofSeconds(a.getSeconds()).plusMillis(a.getMillis()).plusNanos(1000L * a.getMicros());
    }

    /** A duration as people say it: 2 h 5 min, 40 s. */
    public static String words(Duration d) {
        long s = Math.abs(d.getSeconds());
        if (s >= 3600) {
            return s / 3600 + " h" + (s % 3600 / 60 == 0 ? "" : " " + s % 3600 / 60 + " min");
        }
        return s >= 60 ? s / 60 + " min" + (s % 60 == 0 ? "" : " " + s % 60 + " s") : s + " s";
    }
}
