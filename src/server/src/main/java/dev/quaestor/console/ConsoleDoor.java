package dev.quaestor.console;

import dev.quaestor.admin.LetInCall;
import jakarta.enterprise.inject.Instance;
import jakarta.ws.rs.core.Response;

/**
 * How the console answers a page view it let in that its read of the audit log did not answer: a console page, as
 * every refusal of the console is, saying what happened and naming the record, not the auditor API's JSON.
 */
final class ConsoleDoor implements LetInCall.Door {

    private final Instance<ConsoleRefusalMapper> pages;

    ConsoleDoor(Instance<ConsoleRefusalMapper> pages) {
        this.pages = pages;
    }

    @Override
    public Response timedOut(String why, String requestId) {
        return page(503, sentence(why) + ": narrow what you ask for (a subject, a shorter time range, a longer URI prefix),"
                + " or try again when the database is less busy.", requestId);
    }

    @Override
    public Response failed(String why, String requestId) {
        return page(503, sentence(why) + ": nothing more was shown. Try again shortly; what failed is in the server's log.",
                requestId);
    }

    private Response page(int status, String message, String requestId) {
        return pages.get().toResponse(new ConsoleRefusal(status, message, requestId));
    }

    private static String sentence(String why) {
        return Character.toUpperCase(why.charAt(0)) + why.substring(1);
    }
}
