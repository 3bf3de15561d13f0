package dev.quaestor.console;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.review.Finding;
import dev.quaestor.review.Review;
import dev.quaestor.review.SignOff;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateData;
import io.quarkus.qute.TemplateInstance;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.List;

/** The daily reviews: the list (signed, due, overdue), one review's findings, and its sign-off. */
@Path("/console/reviews")
@Produces(MediaType.TEXT_HTML)
@TemplateData(target = Review.class)
@TemplateData(target = Finding.class)
public class ReviewResource {

    @TemplateData
    public record ReviewRow(Review review, boolean overdue, int findings) {
    }

    @CheckedTemplate(basePath = "console", defaultName = CheckedTemplate.HYPHENATED_ELEMENT_NAME)
    static class Templates {
        static native TemplateInstance reviews(Chrome chrome, List<ReviewRow> rows);

        static native TemplateInstance review(Chrome chrome, Review r, boolean overdue, String refusal, String me);
    }

    private final ConsoleAccess access;
    private final ConsolePage page;
    private final SignOff signOff;

    ReviewResource(ConsoleAccess access, ConsolePage page, SignOff signOff) {
        this.access = access;
        this.page = page;
        this.signOff = signOff;
    }

    @GET
    public TemplateInstance list() {
        access.view(ConsoleAccess.Area.AUDIT, "console/reviews", null);
        Instant now = Instant.now();
        List<ReviewRow> rows = QuarkusTransaction.requiringNew().call(() -> Review.newestFirst(90).stream()
                .map(r -> new ReviewRow(r, r.overdue(now), r.findings.size())).toList());
        return Templates.reviews(page.chrome("Reviews"), rows);
    }

    @GET
    @Path("{day}")
    public Response show(@PathParam("day") String dayText) {
        access.view(ConsoleAccess.Area.AUDIT, "console/review", "day=" + dayText);
        LocalDate day = day(dayText);
        String me = access.identity().subject();
        var loaded = QuarkusTransaction.requiringNew().call(() -> {
            Review r = Review.forDay(day);
            if (r != null) {
                r.findings.size();
            }
            return r == null ? null : new Object[] {r, signOff.refusal(r, me)};
        });
        if (loaded == null) {
            return Response.status(404).type(MediaType.TEXT_PLAIN).entity("no review for " + day).build();
        }
        Review r = (Review) loaded[0];
        return Response.ok(Templates.review(page.chrome("Review of " + day), r, r.overdue(Instant.now()), (String) loaded[1], me)).build();
    }

    @POST
    @Path("{day}/sign-off")
    public Response signOff(@PathParam("day") String dayText, @FormParam("csrf") String csrf, @FormParam("note") String note) {
        page.checkCsrf(csrf, "console/review/sign-off");
        LocalDate day = day(dayText);
        String me = access.identity().subject();
        var state = QuarkusTransaction.requiringNew().call(() -> {
            Review r = Review.forDay(day);
            return r == null ? new String[] {"no review for " + day, null} : new String[] {signOff.refusal(r, me), r.digest};
        });
        String text = note == null ? "" : note.strip();
        if (text.length() > 8000) {
            text = text.substring(0, 8000);
        }
        if (state[0] != null) {
            throw access.refuse(AuditEvent.Kind.ADMIN, "review/sign-off", "refused", "review:" + day + ": " + state[0], 409,
                    "Sign-off refused: " + state[0] + ".");
        }
        // On record first (ADMIN, with the review's digest and the reviewer's note); then stored.
        String requestId = access.act(ConsoleAccess.Area.AUDIT, "review/sign-off", "review:" + day,
                "digest=" + state[1] + " note=" + text);
        if (!signOff.sign(day, me, access.authContext(), text, requestId, Instant.now())) {
            throw access.refuse(AuditEvent.Kind.ADMIN, "review/sign-off", "refused", "review:" + day + ": signed meanwhile", 409,
                    "Sign-off refused: someone signed this review off meanwhile.");
        }
        return Response.seeOther(URI.create("/console/reviews/" + day)).build();
    }

    private static LocalDate day(String text) {
        try {
            return LocalDate.parse(text);
        } catch (DateTimeParseException e) {
            throw new jakarta.ws.rs.NotFoundException();
        }
    }
}
