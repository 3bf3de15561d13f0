package dev.quaestor.bench.isolation;

/**
 * What an abuser needs to know of the server under test: where it is, the rate floods send at (the legitimate
 * client's own), the phase's length and the abusers' tokens (a subject of their own; the auditor's carries the
 * auditor role).
 */
record Stage(String url, int port, double rate, int phaseSeconds, String abuserToken, String auditorToken) {

    /**
     * How fast an abuser opens its {@code count} connections: the legitimate client's rate, or faster if that would
     * take more than the first 5 s of the phase to reach the abuse's full size.
     */
    double openRate(int count) {
        return Math.max(rate, count / 5.0);
    }

    /** The rate of a flood of at least {@code count} requests over the phase: the legitimate rate, or more if needed. */
    double floodRate(int count) {
        return Math.max(rate, count / (double) phaseSeconds);
    }

    /** The first lines of an HTTP/1.1 request to this server, up to and including the Authorization header. */
    String head(String method, String path, String token) {
        return method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nAuthorization: Bearer " + token + "\r\n"
                + "User-Agent: isolation-bench\r\n";
    }
}
