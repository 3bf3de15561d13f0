package dev.quaestor.support;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** What any logger logged at ERROR (SEVERE) while some requests were sent and answered. */
public final class ErrorLog {

    /** Requests to send; may throw what a socket throws. */
    public interface Requests {
        void send() throws Exception;
    }

    private ErrorLog() {
    }

    /** Each error logged while {@code requests} ran, as "logger: message", in order. */
    public static List<String> errorsWhile(Requests requests) throws Exception {
        var errors = new CopyOnWriteArrayList<String>();
        var handler = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getLevel().intValue() >= Level.SEVERE.intValue()) {
                    errors.add(r.getLoggerName() + ": " + r.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        var root = Logger.getLogger("");
        root.addHandler(handler);
        try {
            requests.send();
        } finally {
            root.removeHandler(handler);
        }
        return List.copyOf(errors);
    }
}
