package dev.quaestor.audit.anchor;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * An answer's body as bytes, at most {@code cap} of them: past the cap the body is refused as it arrives (the
 * exchange cancelled, its connection closed) with {@link TooLarge}, never read whole; a declared length past the cap
 * is refused before any of it is read.
 */
final class CappedBody implements HttpResponse.BodyHandler<byte[]> {

    /** The answer was longer than the cap. */
    static final class TooLarge extends IOException {
        TooLarge(long cap) {
            super("the answer is larger than " + cap + " bytes", null);
        }
    }

    private final int cap;

    CappedBody(int cap) {
        this.cap = cap;
    }

    @Override
    public HttpResponse.BodySubscriber<byte[]> apply(HttpResponse.ResponseInfo info) {
        boolean declaredTooLarge = info.headers().firstValueAsLong("Content-Length").orElse(0) > cap;
        return new Subscriber(declaredTooLarge);
    }

    private final class Subscriber implements HttpResponse.BodySubscriber<byte[]> {
        private final CompletableFuture<byte[]> body = new CompletableFuture<>();
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final boolean declaredTooLarge;
        private Flow.Subscription subscription;

        Subscriber(boolean declaredTooLarge) {
            this.declaredTooLarge = declaredTooLarge;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return body;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            if (declaredTooLarge) {
                refuse();
            } else {
                s.request(Long.MAX_VALUE);
            }
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            if (body.isDone()) {
                return;
            }
            for (ByteBuffer b : buffers) {
                if (bytes.size() + b.remaining() > cap) {
                    refuse();
                    return;
                }
                byte[] chunk = new byte[b.remaining()];
                b.get(chunk);
                bytes.write(chunk, 0, chunk.length);
            }
        }

        @Override
        public void onError(Throwable t) {
            body.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            body.complete(bytes.toByteArray());
        }

        private void refuse() {
            subscription.cancel();
            body.completeExceptionally(new TooLarge(cap));
        }
    }
}
