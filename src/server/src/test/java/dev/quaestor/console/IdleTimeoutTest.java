package dev.quaestor.console;

import io.vertx.core.http.Cookie;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The activity cookie: recent and signed is a live session; old, forged or missing is an idle one. */
class IdleTimeoutTest {

    private static final ConsoleConfig CONFIG = new ConsoleConfig() {
        @Override
        public Duration idleTimeout() {
            return Duration.ofMinutes(15);
        }

        @Override
        public Optional<String> secret() {
            return Optional.of("a-test-secret-that-is-long-enough-for-hmac");
        }

        @Override
        public int pageSize() {
            return 50;
        }
    };

    @Test
    void onlyARecentSignedActivityKeepsTheSession() {
        var keys = new ConsoleKeys(CONFIG, Optional.empty());
        var idle = new IdleTimeout(keys, CONFIG);
        long now = 1_800_000_000L;
        assertTrue(idle.recent(Cookie.cookie("a", (now - 60) + "." + keys.sign("activity|" + (now - 60))), now));
        assertTrue(idle.recent(Cookie.cookie("a", (now - 900) + "." + keys.sign("activity|" + (now - 900))), now));
        assertFalse(idle.recent(Cookie.cookie("a", (now - 901) + "." + keys.sign("activity|" + (now - 901))), now), "16 minutes idle");
        assertFalse(idle.recent(Cookie.cookie("a", now + "." + keys.sign("activity|" + (now - 60))), now), "a changed time");
        var other = new ConsoleKeys(CONFIG, Optional.empty()) {
            @Override
            public String sign(String text) {
                return "forged";
            }
        };
        assertFalse(idle.recent(Cookie.cookie("a", now + "." + other.sign("activity|" + now)), now), "not our signature");
        assertFalse(idle.recent(null, now));
        assertFalse(idle.recent(Cookie.cookie("a", "garbage"), now));
    }
}
