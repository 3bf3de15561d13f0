package dev.quaestor.bench.audit;

import dev.quaestor.audit.config.AuditConfig;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The audit settings of the benchmarks: a generated key (or a server's key file), the defaults otherwise, no anchoring. */
public final class BenchConfig implements AuditConfig {

    private final String chain;
    private final String keyFile;

    public BenchConfig(String chain) {
        this(chain, null);
    }

    /** Signing with the Ed25519 key in {@code keyFile} (PKCS#8 PEM), as a server given that file does. */
    public BenchConfig(String chain, String keyFile) {
        this.chain = chain;
        this.keyFile = keyFile;
    }

    public Optional<String> chainId() {
        return Optional.of(chain);
    }

    public String logName() {
        return "quaestor.audit";
    }

    public Optional<List<String>> trustedKeys() {
        return Optional.empty();
    }

    public Optional<String> trustedKeysFile() {
        return Optional.empty();
    }

    public Attempts attempts() {
        return new Attempts() {
            public long limit() {
                return 30;
            }

            public Duration period() {
                return Duration.ofSeconds(60);
            }

            public Duration mergeWindow() {
                return Duration.ofSeconds(1);
            }
        };
    }

    public int queueCapacity() {
        return 10_000;
    }

    public double queueShare() {
        return 1.0; // one benchmark writer: its records are the whole queue
    }

    public long queryTimeoutMs() {
        return 10_000;
    }

    public int maxBatch() {
        return 500;
    }

    public Duration commitTimeout() {
        return Duration.ofSeconds(5);
    }

    public int factsLimit() {
        return 200_000;
    }

    public int checkpointEvery() {
        return 1000;
    }

    public Duration checkpointInterval() {
        return Duration.ofSeconds(10);
    }

    public Optional<String> signingKey() {
        return Optional.empty();
    }

    public Optional<String> signingKeyFile() {
        return Optional.ofNullable(keyFile);
    }

    public boolean generateKey() {
        return keyFile == null;
    }

    public Optional<List<String>> hashedFields() {
        return Optional.empty();
    }

    public Optional<String> hmacKey() {
        return Optional.empty();
    }

    public String auditorRole() {
        return "quaestor-auditor";
    }

    public Anchor anchor() {
        return new Anchor() {
            public Optional<java.net.URI> tsaUrl() {
                return Optional.empty();
            }

            public Optional<String> tsaCa() {
                return Optional.empty();
            }

            public Optional<String> username() {
                return Optional.empty();
            }

            public Optional<String> password() {
                return Optional.empty();
            }

            public Optional<String> tlsConfigurationName() {
                return Optional.empty();
            }

            public Optional<Integer> every() {
                return Optional.empty();
            }

            public Optional<Duration> interval() {
                return Optional.empty();
            }

            public Optional<String> policy() {
                return Optional.empty();
            }

            public Duration maxDelay() {
                return Duration.ofHours(1);
            }

            public Duration timeout() {
                return Duration.ofSeconds(10);
            }

            public Duration poll() {
                return Duration.ofSeconds(2);
            }
        };
    }
}
