package dev.quaestor.audit.anchor;

import java.io.IOException;
import java.math.BigInteger;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.cmp.PKIStatus;
import org.bouncycastle.tsp.TSPAlgorithms;
import org.bouncycastle.tsp.TSPException;
import org.bouncycastle.tsp.TimeStampRequest;
import org.bouncycastle.tsp.TimeStampRequestGenerator;
import org.bouncycastle.tsp.TimeStampResponse;

/**
 * Asks a time-stamping authority for an RFC 3161 token over a SHA-256 digest: one HTTP POST of a request with a
 * fresh nonce and {@code certReq}, over https with the configured credentials (HTTP basic, or a client
 * certificate through the TLS context). The answer must be a granted response to exactly that request (RFC 3161
 * section 2.4.2: same imprint and nonce, the TSA's certificate included); the token's own checks are the
 * verifier's, done by the caller. The timeout bounds the connection and the whole exchange, the answer's body
 * included, and the body is read up to {@link #MAX_ANSWER} bytes only: a longer one is refused as it arrives.
 */
final class TsaClient {

    /** Why no token came back: {@code reason} is a short word for the metric, the message says more. */
    static final class Failure extends Exception {
        final String reason;

        Failure(String reason, String message) {
            super(message, null, false, false);
            this.reason = reason;
        }
    }

    /** What the client needs to reach the TSA. */
    record Target(URI url, Optional<String> username, Optional<String> password, SSLContext ssl, Duration timeout,
            Optional<String> policy) {
    }

    private static final SecureRandom NONCES = new SecureRandom();

    /**
     * The largest answer read: 64 KiB. A granted reply is a status and a token with the TSA's certificate: about
     * 2.3 KiB from the test TSA (one certificate), and each further certificate a TSA adds weighs 1 to 2 KiB. A TSA
     * sending more than the cap is refused without being read whole.
     */
    static final int MAX_ANSWER = 64 * 1024;

    private final Target target;
    private final HttpClient http;
    private final String authorization;

    TsaClient(Target target) {
        this.target = target;
        if (target.username().isPresent() && !"https".equals(target.url().getScheme())) {
            throw new IllegalStateException("quaestor.audit.anchor.username is set but the TSA's URL is not https: "
                    + "credentials are sent over https only");
        }
        var builder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(target.timeout())
                .followRedirects(HttpClient.Redirect.NEVER);
        if (target.ssl() != null) {
            builder.sslContext(target.ssl());
        }
        this.http = builder.build();
        this.authorization = target.username().map(u -> "Basic " + Base64.getEncoder()
                .encodeToString((u + ":" + target.password().orElse("")).getBytes(StandardCharsets.UTF_8))).orElse(null);
    }

    URI url() {
        return target.url();
    }

    /**
     * The whole exchange, body included, within the timeout: the request's own timeout ends at the answer's headers,
     * so a TSA that sent them and then trickles its body would hold the anchoring thread for as long as it liked.
     * Past the deadline the exchange is cancelled (its connection closed) and reported as a timeout.
     */
    private HttpResponse<byte[]> exchange(HttpRequest request) throws IOException, InterruptedException {
        CompletableFuture<HttpResponse<byte[]>> pending = http.sendAsync(request, new CappedBody(MAX_ANSWER));
        try {
            return pending.get(target.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            pending.cancel(true);
            throw new HttpTimeoutException("no whole answer within the deadline");
        } catch (InterruptedException e) {
            pending.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
                if (t instanceof CappedBody.TooLarge tooLarge) {
                    throw tooLarge;
                }
            }
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException(e.getCause());
        }
    }

    /** A token (DER) over {@code sha256}; throws saying why not. */
    byte[] stamp(byte[] sha256) throws Failure, InterruptedException {
        var generator = new TimeStampRequestGenerator();
        generator.setCertReq(true);
        target.policy().ifPresent(p -> generator.setReqPolicy(new ASN1ObjectIdentifier(p)));
        TimeStampRequest request = generator.generate(TSPAlgorithms.SHA256, sha256, new BigInteger(64, NONCES));
        HttpResponse<byte[]> answer;
        try {
            var post = HttpRequest.newBuilder(target.url()).timeout(target.timeout())
                    .header("Content-Type", "application/timestamp-query").header("Accept", "application/timestamp-reply")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(request.getEncoded()));
            if (authorization != null) {
                post.header("Authorization", authorization);
            }
            answer = exchange(post.build());
        } catch (CappedBody.TooLarge e) {
            throw new Failure("too-large", "the TSA's answer is larger than " + MAX_ANSWER / 1024
                    + " KiB, far more than a time-stamp reply: refused unread past that");
        } catch (HttpTimeoutException e) {
            throw new Failure("timeout", "the TSA did not answer within " + target.timeout().toMillis() + " ms");
        } catch (ConnectException e) {
            throw new Failure("unreachable", "cannot connect to the TSA: " + e);
        } catch (SSLException e) {
            throw new Failure("tls", "TLS with the TSA failed: " + e.getMessage());
        } catch (IOException e) {
            throw new Failure("unreachable", "the TSA's connection failed: " + e);
        }
        if (answer.statusCode() == 401 || answer.statusCode() == 403) {
            throw new Failure("refused", "the TSA refused the request (HTTP " + answer.statusCode() + "): check its credentials");
        }
        if (answer.statusCode() != 200) {
            throw new Failure("http", "the TSA answered HTTP " + answer.statusCode());
        }
        try {
            var response = new TimeStampResponse(answer.body());
            if (response.getStatus() != PKIStatus.GRANTED && response.getStatus() != PKIStatus.GRANTED_WITH_MODS) {
                throw new Failure("rejected", "the TSA did not grant the request: status " + response.getStatus()
                        + (response.getStatusString() == null ? "" : " (" + response.getStatusString() + ")"));
            }
            response.validate(request);
            return response.getTimeStampToken().getEncoded();
        } catch (TSPException | IOException | RuntimeException e) {
            throw new Failure("invalid", "the TSA's answer is not a valid response to the request: " + e.getMessage());
        }
    }
}
