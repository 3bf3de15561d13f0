package dev.quaestor.review;

import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;

/**
 * Signing off a review: the reviewer's findings note, who, when and how they signed in. Refused when the review
 * is already signed, or when the reviewer's own activity is among its findings (nobody signs off their own).
 * The caller records the sign-off (an ADMIN record carrying the review's digest) before it is stored.
 */
@ApplicationScoped
public class SignOff {

    /** Why a sign-off is refused, or null when it may go ahead. */
    public String refusal(Review review, String reviewer) {
        if (review == null) {
            return "no review for that day";
        }
        if (review.signed()) {
            return "this review was signed off by " + review.signedBy + " at " + review.signedAt;
        }
        if (review.findings.stream().anyMatch(f -> Objects.equals(f.subject, reviewer))) {
            return "your own activity (" + reviewer + ") is flagged in this review: another reviewer must sign it off";
        }
        return null;
    }

    /** Stores the sign-off if the review is still unsigned; false if someone signed it meanwhile. */
    public boolean sign(LocalDate day, String reviewer, String authContext, String note, String requestId, Instant at) {
        return QuarkusTransaction.requiringNew().call(() -> Review.update("signedBy = ?1, signedAt = ?2, signedAuth = ?3, "
                + "signOffNote = ?4, signOffRequest = ?5 where day = ?6 and signedAt is null", reviewer, at, authContext, note,
                requestId, day) == 1);
    }
}
