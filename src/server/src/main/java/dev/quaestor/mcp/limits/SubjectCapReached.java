package dev.quaestor.mcp.limits;

/** A subject holds as many of some kind of place as it may: the request that asked for one more is refused at {@link #cap}. */
public final class SubjectCapReached extends RuntimeException {

    public final Cap cap;
    final int limit;

    public SubjectCapReached(Cap cap, int limit) {
        super(cap.tag + " cap of " + limit + " reached", null, false, false);
        this.cap = cap;
        this.limit = limit;
    }

    /** What the refusal's record says of the bound. */
    public String detail() {
        return "at most " + limit + " " + cap.tag + " per subject";
    }
}
