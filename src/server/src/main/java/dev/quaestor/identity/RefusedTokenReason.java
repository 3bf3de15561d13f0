package dev.quaestor.identity;

import org.jose4j.jwt.consumer.ErrorCodes;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jose4j.lang.UnresolvableKeyException;

/**
 * Why a bearer token was refused, in a few fixed words for its {@code AUTHENTICATION} record's detail (never the
 * caller's answer, which says only that the token was refused): expired, not yet valid, wrong audience, wrong issuer,
 * bad signature, unknown signing key, or what one of this server's own checks said. Fixed words only: nothing of the
 * unverified token (its claims, its header) reaches the record.
 */
final class RefusedTokenReason {

    private RefusedTokenReason() {
    }

    /** The reason in {@code failure}'s causes, or null if none is known. */
    static String of(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof InvalidJwtException jwt) {
                return of(jwt);
            }
            if (t instanceof UnresolvableKeyException) {
                return "unknown signing key";
            }
            if (t instanceof OwnCheck own) {
                return own.getMessage();
            }
        }
        return null;
    }

    /**
     * The reason when quarkus-oidc gave none (it refuses a malformed token, or one whose key it cannot find after
     * reloading the key set, without a cause): read from the token's header alone, never from its claims.
     */
    static String ofToken(String authorization, PublishedKeys keys) {
        String token = authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
                ? authorization.substring(7).strip() : null;
        String keyId = WithdrawnKeys.of(token);
        return keyId != null && !keys.publishedLast(keyId) ? "unknown signing key" : "not a valid token";
    }

    private static String of(InvalidJwtException jwt) {
        if (jwt.hasExpired()) {
            return "expired";
        } else if (jwt.hasErrorCode(ErrorCodes.AUDIENCE_INVALID) || jwt.hasErrorCode(ErrorCodes.AUDIENCE_MISSING)) {
            return "wrong audience";
        } else if (jwt.hasErrorCode(ErrorCodes.ISSUER_INVALID) || jwt.hasErrorCode(ErrorCodes.ISSUER_MISSING)) {
            return "wrong issuer";
        } else if (jwt.hasErrorCode(ErrorCodes.SIGNATURE_INVALID) || jwt.hasErrorCode(ErrorCodes.SIGNATURE_MISSING)) {
            return "bad signature";
        } else if (jwt.hasErrorCode(ErrorCodes.NOT_YET_VALID)) {
            return "not yet valid";
        } else if (jwt.hasErrorCode(ErrorCodes.EXPIRATION_MISSING)) {
            return "no expiry";
        }
        return "not a valid token";
    }

    /** A refusal by one of this server's checks after quarkus-oidc's: its message is the reason on record. */
    static final class OwnCheck extends RuntimeException {
        OwnCheck(String reason) {
            super(reason, null, false, false);
        }
    }
}
