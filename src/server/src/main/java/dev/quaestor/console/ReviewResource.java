package dev.quaestor.console;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.cases.CaseSummary;
import dev.quaestor.review.DailyReview;
import dev.quaestor.review.Finding;
import dev.quaestor.review.FindingMarks;
import dev.quaestor.review.Review;
import dev.quaestor.review.ReviewBacklog;
import dev.quaestor.review.ReviewConfig;
import dev.quaestor.review.ReviewRun;
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
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The daily reviews: the list (signed, due, overdue, and the recent days without one, which a reviewer can have
 * produced), one review's findings with a link to each one's records and its mark, and the review's sign-off.
 */
@Path("/console/reviews")
@Produces(MediaType.TEXT_HTML)
@TemplateData(target = Review.class)
@TemplateData(target = Finding.class)
public class ReviewResource {

    @TemplateData
    public record ReviewRow(Review review, boolean overdue, int findings) {
    }

    /** A finding as the review page shows it: where its records are, and whether the reader may mark it. */
    @TemplateData
    public record FindingRow(Finding finding, String link, boolean mine) {
    }

    /** What a finding's mark form offers: the marks, and the cases an escalation may go to. */
    @TemplateData
    public record MarkChoices(List<String> marks, List<CaseSummary> cases) {
    }

    /**
     * Days of the last {@link #RECENT_DAYS} without a review ({@link ReviewBacklog}: none before the audit log's first
     * record) are listed, newest first, for a reviewer to have produced.
     */
    static final int RECENT_DAYS = 30;

    static final List<String> MARKS = Stream.of(Finding.Mark.values()).map(m -> m.name().toLowerCase(Locale.ROOT)).toList();

    @CheckedTemplate(basePath = "console", defaultName = CheckedTemplate.HYPHENATED_ELEMENT_NAME)
    static class Templates {
        static native TemplateInstance reviews(Chrome chrome, List<ReviewRow> rows, List<LocalDate> missing, LocalDate yesterday,
                String zone);

        static native TemplateInstance review(Chrome chrome, Review r, List<FindingRow> findings, boolean overdue, String refusal,
                String me, MarkChoices choices, String zone);
    }

    private final ConsoleAccess access;
    private final ConsolePage page;
    private final SignOff signOff;
    private final FindingMarks marks;
    private final DailyReview daily;
    private final ReviewConfig config;
    private final FindingEscalation escalation;
    private final ReviewBacklog backlog;

    ReviewResource(ConsoleAccess access, ConsolePage page, SignOff signOff, FindingMarks marks, DailyReview daily, ReviewConfig config,
            FindingEscalation escalation, ReviewBacklog backlog) {
        this.escalation = escalation;
        this.backlog = backlog;
        this.access = access;
        this.page = page;
        this.signOff = signOff;
        this.marks = marks;
        this.daily = daily;
        this.config = config;
    }

    @GET
    public TemplateInstance list() {
        access.view(ConsoleAccess.Area.AUDIT, "console/reviews", null);
        Instant now = Instant.now();
        List<ReviewRow> rows = QuarkusTransaction.requiringNew().call(() -> Review.newestFirst(90).stream()
                .map(r -> new ReviewRow(r, r.overdue(now), r.findings.size())).toList());
        LocalDate yesterday = yesterday();
        var missing = new ArrayList<>(backlog.missing(now, RECENT_DAYS));
        Collections.reverse(missing);
        return Templates.reviews(page.chrome("Reviews"), rows, missing, yesterday, config.zone());
    }

    /**
     * Produces the review of a past day that has none (the job was off, or failed), as the daily job would: on record
     * first (ADMIN, by the reviewer who asked), then produced, itself on record as every review's production is.
     */
    @POST
    @Path("produce")
    public Response produce(@FormParam("csrf") String csrf, @FormParam("day") String dayText) {
        page.checkCsrf(csrf, "console/review/produce");
        LocalDate day;
        try {
            day = LocalDate.parse(dayText == null ? "" : dayText.strip());
        } catch (DateTimeParseException e) {
            throw access.refuse(AuditEvent.Kind.ADMIN, "review/produce", "refused", "day=" + dayText + ": not a date", 400,
                    "Not produced: \"" + dayText + "\" is not a date (use 2026-11-23).");
        }
        if (!day.isBefore(LocalDate.now(ZoneId.of(config.zone())))) {
            throw access.refuse(AuditEvent.Kind.ADMIN, "review/produce", "refused", "review:" + day + ": not over yet", 409,
                    "Not produced: " + day + " is not over yet in " + config.zone() + "; a day is reviewed once it has ended.");
        }
        var began = backlog.firstDay();
        if (began.isEmpty() || day.isBefore(began.get())) {
            // Produced, it would be a review of no records: read as "nothing happened that day", though nothing was kept.
            String why = began.isEmpty() ? "the audit log holds no record yet"
                    : "the audit log's first record is of " + began.get() + ", and a day before it has no records to review";
            throw access.refuse(AuditEvent.Kind.ADMIN, "review/produce", "review:" + day, "refused", "before the log began: " + why,
                    409, "Not produced: " + why + ".");
        }
        access.act(ConsoleAccess.Area.AUDIT, "review/produce", "review:" + day, "asked from the console");
        DailyReview.Result result = daily.reviewDay(day);
        if (result != DailyReview.Result.PRODUCED && result != DailyReview.Result.ALREADY_REVIEWED) {
            String why = switch (result) {
                case ALREADY_CLAIMED -> claimed(day);
                case DISABLED -> "the daily review is switched off (quaestor.review.enabled)";
                default -> "not produced (" + result + ")";
            };
            // The asking is on record as let in: a second record under its request id says nothing was produced.
            throw new ConsoleRefusal(409, "Not produced: " + why + ".", access.notAnswered("not-produced", why))
                    .backTo("/console/reviews");
        }
        return Response.seeOther(URI.create("/console/reviews/" + day)).build();
    }

    /**
     * Why another run holds {@code day}. Its row says only that a run started and has not ended: a run that fails
     * gives its claim back, but one whose replica stopped mid-run holds it until it goes stale, so the message does
     * not claim the run is in progress.
     */
    private String claimed(LocalDate day) {
        ReviewRun run = QuarkusTransaction.requiringNew().call(() -> ReviewRun.findById(day));
        if (run == null || run.finishedAt != null) {
            return "another run of the review of " + day + " ended just now; open it again";
        }
        return "the review of " + day + " is claimed by a run that has not finished (replica " + run.replica + ", since "
                + run.startedAt + "); if it is still running, open it again in a minute; if its replica stopped, the day can be "
                + "produced again from " + run.startedAt.plus(config.staleRunAfter());
    }

    /** Marks a finding reviewed, dismissed or escalated: on record first (ADMIN), then stored. */
    @POST
    @Path("{day}/findings/{id}/mark")
    public Response mark(@PathParam("day") String dayText, @PathParam("id") long id, @FormParam("csrf") String csrf,
            @FormParam("mark") String markText, @FormParam("note") String note, @FormParam("caseId") String caseText) {
        page.checkCsrf(csrf, "console/review/mark");
        LocalDate day = day(dayText, AuditEvent.Kind.ADMIN, "review/mark");
        String me = access.identity().subject();
        Finding.Mark mark;
        try {
            mark = Finding.Mark.valueOf(markText == null ? "" : markText.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw access.refuse(AuditEvent.Kind.ADMIN, "review/mark", "refused", "review:" + day + " finding " + id + ": mark " + markText,
                    400, "Not marked: choose one of " + String.join(", ", MARKS) + ".");
        }
        String text = note == null ? "" : note.strip();
        if (text.length() > FindingEscalation.NOTE) {
            text = text.substring(0, FindingEscalation.NOTE);
        }
        String said = text;
        // An escalation may take the finding's records to a case: whether the reviewer may add to it is asked first.
        Long caseId = caseText == null || caseText.isBlank() ? null : caseId(caseText, day, id);
        if (caseId != null && mark != Finding.Mark.ESCALATED) {
            throw access.refuse(AuditEvent.Kind.ADMIN, "review/mark", "refused", "review:" + day + " finding " + id + ": case with " + mark,
                    400, "Not marked: a case is chosen only to escalate to it.");
        }
        var staff = caseId == null ? null : escalation.admitted(caseId);
        Finding found = QuarkusTransaction.requiringNew().call(() -> {
            Finding f = Finding.findById(id);
            return f == null || !f.review.day.equals(day) ? null : f;
        });
        String refusal = found == null ? "no such finding in the review of " + day : marks.refusal(found, me, mark, said);
        if (refusal != null) {
            throw access.refuse(AuditEvent.Kind.ADMIN, "review/mark", "refused", "review:" + day + " finding " + id + ": " + refusal, 409,
                    "Not marked: " + refusal + ".");
        }
        // Whatever the case could refuse is asked before anything is stored: a refusal leaves the finding unmarked.
        var plan = caseId == null ? null : escalation.plan(caseId, staff, found, day, config.zone(), said);
        String requestId = access.act(ConsoleAccess.Area.AUDIT, "review/mark", "review:" + day,
                "finding=" + id + " mark=" + mark + " note=" + text);
        if (!marks.mark(id, mark, me, text, requestId, Instant.now())) {
            throw access.refuse(AuditEvent.Kind.ADMIN, "review/mark", "refused", "review:" + day + " finding " + id + ": marked meanwhile",
                    409, "Not marked: someone marked this finding meanwhile.");
        }
        if (plan != null) {
            escalate(plan, day, id, requestId);
            return Response.seeOther(URI.create("/console/cases/" + caseId)).build();
        }
        return Response.seeOther(URI.create("/console/reviews/" + day + "#finding-" + id)).build();
    }

    /**
     * Adds the finding's search and note to the case. Should the case refuse them all the same (changed since the plan
     * was checked), the mark is withdrawn, so that the finding can be marked again, and that is on record (DENY,
     * {@code escalation-refused}) after the case's own refusal.
     */
    private void escalate(FindingEscalation.Plan plan, LocalDate day, long finding, String markRequest) {
        try {
            escalation.escalate(plan);
        } catch (ConsoleRefusal r) {
            ConsoleRefusal withdrawn = access.refuse(AuditEvent.Kind.ADMIN, "review/mark", "review:" + day, "escalation-refused",
                    "finding=" + finding + " mark withdrawn: case " + plan.caseId() + " refused the escalation (request " + r.requestId() + ")",
                    r.status(), "Not escalated: " + r.getMessage() + " The finding is unmarked again.");
            marks.withdraw(finding, markRequest);
            throw withdrawn;
        }
    }

    private Long caseId(String text, LocalDate day, long finding) {
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw access.refuse(AuditEvent.Kind.ADMIN, "review/mark", "refused", "review:" + day + " finding " + finding + ": case " + text,
                    400, "Not marked: no case " + text + ".");
        }
    }

    private LocalDate yesterday() {
        return LocalDate.now(ZoneId.of(config.zone())).minusDays(1);
    }

    @GET
    @Path("{day}")
    public Response show(@PathParam("day") String dayText) {
        String method = "console/review";
        LocalDate day = day(dayText, AuditEvent.Kind.AUDIT_READ, method);
        access.view(ConsoleAccess.Area.AUDIT, method, "day=" + dayText);
        String me = access.identity().subject();
        var loaded = QuarkusTransaction.requiringNew().call(() -> {
            Review r = Review.forDay(day);
            if (r != null) {
                r.findings.size();
            }
            return r == null ? null : new Object[] {r, signOff.refusal(r, me)};
        });
        if (loaded == null) {
            throw access.notFound("no review for " + day, "No review for " + day
                    + ". A past day without one can be produced from the reviews page.").backTo("/console/reviews");
        }
        Review r = (Review) loaded[0];
        List<FindingRow> rows = r.findings.stream()
                .map(f -> new FindingRow(f, FindingLink.of(f, day, config.zone()), me.equals(f.subject))).toList();
        return Response.ok(Templates.review(page.chrome("Review of " + day), r, rows, r.overdue(Instant.now()), (String) loaded[1], me,
                new MarkChoices(MARKS, escalation.choices()), config.zone())).build();
    }

    @POST
    @Path("{day}/sign-off")
    public Response signOff(@PathParam("day") String dayText, @FormParam("csrf") String csrf, @FormParam("note") String note) {
        page.checkCsrf(csrf, "console/review/sign-off");
        LocalDate day = day(dayText, AuditEvent.Kind.ADMIN, "review/sign-off");
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

    /**
     * The day a review's address names. One that is not a date is refused before anything is read, 400, on record as
     * {@code method} ({@code kind}), {@code invalid}, with the value: a page naming it and the form a day takes. A
     * caller whose role does not open reviews is refused for that instead (403, {@code forbidden}).
     */
    private LocalDate day(String text, AuditEvent.Kind kind, String method) {
        try {
            return LocalDate.parse(text);
        } catch (DateTimeParseException e) {
            if (!access.isAuditor()) {
                access.view(ConsoleAccess.Area.AUDIT, method, "day=" + text); // records the refusal and throws
            }
            throw access.refuse(kind, method, "invalid", "day=" + text + " refused: not a date (YYYY-MM-DD)", 400,
                    "'day' is not a date: " + SearchFormCheck.quoted(text) + ". A review's day is written YYYY-MM-DD, as "
                            + yesterday() + ".").backTo("/console/reviews");
        }
    }
}
