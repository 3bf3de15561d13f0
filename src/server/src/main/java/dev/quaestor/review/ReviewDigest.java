package dev.quaestor.review;

import dev.quaestor.evidence.Hex;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDate;
import java.util.List;

/**
 * The SHA-256 of what a review says: its day, integrity verdict and findings, one line each, in a fixed order.
 * The records of the review's production and sign-off carry it, so that what was signed can be shown later
 * from the audit trail alone, even if the review's row were changed.
 */
public final class ReviewDigest {

    private ReviewDigest() {
    }

    public static String of(LocalDate day, boolean integrityOk, String integrity, List<Finding> findings) {
        var sb = new StringBuilder("quaestor-review/v1\n").append(day).append('\n').append(integrityOk ? "verified" : "broken")
                .append('\n').append(line(integrity)).append('\n');
        findings.stream().map(f -> f.category + "\t" + line(f.subject) + "\t" + f.eventCount + "\t" + line(f.detail)).sorted()
                .forEach(l -> sb.append(l).append('\n'));
        try {
            return Hex.of(MessageDigest.getInstance("SHA-256").digest(sb.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String line(String s) {
        return s == null ? "-" : s.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t");
    }
}
