package dev.quaestor.bench.isolation;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * Raw HTTP/1.1 connections that a client opens and then holds, all on one selector thread: each is opened on
 * schedule (open loop, {@code perSecond}), sends the first {@code sendBytes} of its request (all of it, or headers
 * and a little of the body and then nothing), and then reads as its {@link Reading} says: nothing at all (a client
 * that never drains: the server's writes fill the small receive window and stay there), everything (a stream
 * held open and drained, as a well-behaved SSE client does), or a trickle of bytes per second. What the server
 * answered (the status line) and whether it closed the connection are kept for {@link #summary}.
 */
final class HeldSockets implements AutoCloseable {

    /** How the client reads what the server sends. */
    enum Reading {
        NOTHING, DRAIN, TRICKLE
    }

    /**
     * @param requests     the request bytes of connection {@code i}
     * @param sendBytes    how many of them are sent (-1: all)
     * @param receiveBuffer SO_RCVBUF before connecting (0: the system's default)
     * @param trickle      bytes per second each connection reads with {@link Reading#TRICKLE}
     */
    record Spec(int count, double perSecond, IntFunction<byte[]> requests, int sendBytes, Reading reading, int receiveBuffer,
            int trickle, String marker) {
    }

    private static final int HEAD_BYTES = 8192;

    private final Spec spec;
    private final InetSocketAddress address;
    private final Selector selector;
    private final List<Held> held = new ArrayList<>();
    private final Thread thread;
    private volatile boolean stopped;
    private long startNanos;
    private IOException failure;

    private static final class Held {
        SocketChannel channel;
        ByteBuffer out;
        final ByteBuffer head = ByteBuffer.allocate(HEAD_BYTES);
        long read;
        boolean closedByServer;
        boolean connectFailed;
        long closedAfterMs = -1;
        long openedNanos;
    }

    HeldSockets(int port, Spec spec) throws IOException {
        this.spec = spec;
        this.address = new InetSocketAddress("127.0.0.1", port);
        this.selector = Selector.open();
        this.thread = new Thread(this::loop, "held-sockets");
        thread.setDaemon(true);
    }

    void start() {
        startNanos = System.nanoTime();
        thread.start();
    }

    private void loop() {
        ByteBuffer sink = ByteBuffer.allocate(1 << 16);
        long lastTrickle = System.nanoTime();
        try {
            while (!stopped) {
                long now = System.nanoTime();
                while (held.size() < spec.count() && startNanos + (long) (held.size() * 1e9 / spec.perSecond()) <= now) {
                    open(held.size());
                }
                selector.select(20);
                for (SelectionKey k : selector.selectedKeys()) {
                    Held h = (Held) k.attachment();
                    try {
                        if (k.isValid() && k.isConnectable()) {
                            h.channel.finishConnect();
                            k.interestOps(SelectionKey.OP_WRITE);
                        }
                        if (k.isValid() && k.isWritable()) {
                            h.channel.write(h.out);
                            if (!h.out.hasRemaining()) {
                                k.interestOps(spec.reading() == Reading.DRAIN ? SelectionKey.OP_READ : 0);
                            }
                        }
                        if (k.isValid() && k.isReadable()) {
                            sink.clear();
                            read(h, k, sink);
                        }
                    } catch (IOException e) {
                        closed(h, k);
                    }
                }
                selector.selectedKeys().clear();
                now = System.nanoTime();
                if (spec.reading() == Reading.TRICKLE && now - lastTrickle >= 100_000_000L) {
                    int budget = (int) Math.max(1, spec.trickle() * (now - lastTrickle) / 1_000_000_000L);
                    lastTrickle = now;
                    for (Held h : held) {
                        SelectionKey k = h.channel.keyFor(selector);
                        if (k == null || !k.isValid() || h.out.hasRemaining()) {
                            continue;
                        }
                        try {
                            read(h, k, ByteBuffer.allocate(budget));
                        } catch (IOException e) {
                            closed(h, k);
                        }
                    }
                }
            }
        } catch (IOException e) {
            failure = e;
        }
    }

    private void open(int i) throws IOException {
        var h = new Held();
        h.openedNanos = System.nanoTime();
        byte[] request = spec.requests().apply(i);
        h.out = ByteBuffer.wrap(request, 0, spec.sendBytes() < 0 ? request.length : Math.min(spec.sendBytes(), request.length));
        held.add(h);
        try {
            h.channel = SocketChannel.open();
            h.channel.configureBlocking(false);
            if (spec.receiveBuffer() > 0) {
                h.channel.setOption(StandardSocketOptions.SO_RCVBUF, spec.receiveBuffer());
            }
            h.channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            boolean connected = h.channel.connect(address);
            h.channel.register(selector, connected ? SelectionKey.OP_WRITE : SelectionKey.OP_CONNECT, h);
        } catch (IOException e) {
            h.connectFailed = true;
        }
    }

    private void read(Held h, SelectionKey k, ByteBuffer into) throws IOException {
        int n = h.channel.read(into);
        if (n < 0) {
            closed(h, k);
            return;
        }
        if (n > 0) {
            h.read += n;
            into.flip();
            while (into.hasRemaining() && h.head.hasRemaining()) {
                h.head.put(into.get());
            }
        }
    }

    private void closed(Held h, SelectionKey k) {
        k.cancel();
        try {
            h.channel.close();
        } catch (IOException ignored) {
            // closing a connection the server already closed
        }
        if (!stopped && !h.closedByServer) {
            h.closedByServer = true;
            h.closedAfterMs = (System.nanoTime() - h.openedNanos) / 1_000_000;
        }
    }

    /** Connections opened so far (the selector thread's count; read after {@link #close} for the final one). */
    int opened() {
        return held.size();
    }

    /**
     * E.g. "20 opened, 20 still open; answers: none" or "300 opened, 0 still open; answers: 408 x256, closed
     * unanswered x44; closed after 30.0 s (median)".
     */
    String summary() {
        int open = 0;
        int failed = 0;
        int marked = 0;
        long bytes = 0;
        var answers = new TreeMap<String, Integer>();
        var closedAfter = new ArrayList<Long>();
        for (Held h : held) {
            if (h.connectFailed) {
                failed++;
                continue;
            }
            bytes += h.read;
            String head = new String(h.head.array(), 0, h.head.position(), StandardCharsets.ISO_8859_1);
            if (h.closedByServer) {
                closedAfter.add(h.closedAfterMs);
            } else {
                open++;
            }
            if (head.startsWith("HTTP/1.1 ") && head.length() >= 12) {
                answers.merge(head.substring(9, 12), 1, Integer::sum);
            } else if (h.closedByServer) {
                answers.merge("closed unanswered", 1, Integer::sum);
            }
            if (spec.marker() != null && head.contains(spec.marker())) {
                marked++;
            }
        }
        var s = new StringBuilder();
        s.append(held.size()).append(" opened, ").append(open).append(" held to the end");
        if (failed > 0) {
            s.append(", ").append(failed).append(" could not connect");
        }
        s.append("; answers: ").append(answers.isEmpty() ? "none" : format(answers));
        if (spec.marker() != null) {
            s.append("; ").append(marked).append(" with ").append(spec.marker());
        }
        if (!closedAfter.isEmpty()) {
            closedAfter.sort(null);
            s.append(String.format("; closed by the server after %.1f s (median)", closedAfter.get(closedAfter.size() / 2) / 1000.0));
        }
        s.append(String.format("; %,d bytes read", bytes));
        if (failure != null) {
            s.append("; selector failed: ").append(failure);
        }
        return s.toString();
    }

    private static String format(Map<String, Integer> answers) {
        var parts = new ArrayList<String>();
        answers.forEach((k, v) -> parts.add(k + " x" + v));
        return String.join(", ", parts);
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        thread.join(5000);
        for (Held h : held) {
            if (h.channel != null) {
                try {
                    h.channel.close();
                } catch (IOException ignored) {
                    // already closed
                }
            }
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
    }
}
