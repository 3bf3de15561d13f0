package dev.quaestor.console;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.read.AuditQuery;
import dev.quaestor.audit.read.AuditSearch;
import dev.quaestor.audit.read.SearchPaging;
import dev.quaestor.policy.PolicyChange;
import dev.quaestor.policy.PolicyStore;
import dev.quaestor.policy.history.Activation;
import dev.quaestor.policy.history.RevisionDiff;
import dev.quaestor.policy.history.StoredRevision;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateData;
import io.quarkus.qute.TemplateInstance;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;

/**
 * Policy status and history, for the auditor and administrator roles: the active revision and its state, every
 * activation (when, where, how, with its annotation), every refused reload (the set that failed validation, each
 * problem's file and line), each stored revision's files, and a diff of any two.
 */
@Path("/console/policy")
@Produces(MediaType.TEXT_HTML)
@TemplateData(target = Activation.class)
@TemplateData(target = StoredRevision.class)
@TemplateData(target = RevisionDiff.FileDiff.class)
@TemplateData(target = RevisionDiff.Line.class)
@TemplateData(target = PolicyChange.class)
public class PolicyResource {

    /** What the policy page shows. */
    @TemplateData
    public record PolicyPage(String revision, List<String> files, int rules, int limits, int tests, PolicyChange refusal,
            List<String> refusalErrors, List<Activation> activations, List<StoredRevision> revisions, List<RefusedReload> refused) {
    }

    @CheckedTemplate(basePath = "console", defaultName = CheckedTemplate.HYPHENATED_ELEMENT_NAME)
    static class Templates {
        static native TemplateInstance policy(Chrome chrome, PolicyPage view);

        static native TemplateInstance revision(Chrome chrome, String revision, List<Map.Entry<String, String>> files,
                List<Activation> activations);

        static native TemplateInstance diff(Chrome chrome, String from, String to, List<RevisionDiff.FileDiff> files);
    }

    static final int HISTORY = 500;
    /** The most refused reloads the page lists, newest first. */
    static final int REFUSED = 100;

    private final PolicyStore store;
    private final AuditSearch records;
    private final ConsoleAccess access;
    private final ConsolePage page;

    PolicyResource(PolicyStore store, AuditSearch records, ConsoleAccess access, ConsolePage page) {
        this.store = store;
        this.records = records;
        this.access = access;
        this.page = page;
    }

    @GET
    public TemplateInstance status() {
        access.view(ConsoleAccess.Area.POLICY, "console/policy", null);
        var set = store.current();
        var refusal = store.refusal();
        List<Activation> activations = QuarkusTransaction.requiringNew().call(() -> Activation.newestFirst(HISTORY));
        List<StoredRevision> revisions = QuarkusTransaction.requiringNew()
                .call(() -> StoredRevision.<StoredRevision>list("order by firstSeen desc"));
        return Templates.policy(page.chrome("Policy"), new PolicyPage(set.revision(), set.files(), set.rules().size(),
                set.limits().size(), set.tests().size(), refusal,
                refusal == null ? List.of() : refusal.errors().stream().map(Object::toString).toList(), activations, revisions,
                refused()));
    }

    /** The refused reloads on record ({@code POLICY} records with outcome {@code refused}), newest first. */
    private List<RefusedReload> refused() {
        var q = new AuditQuery(null, null, null, null, null, null, "refused", AuditEvent.Kind.POLICY.name(), null, null, null, REFUSED);
        return records.window(q, new SearchPaging(true, REFUSED, SearchPaging.From.FIRST, 0)).records().stream()
                .map(RefusedReload::of).toList();
    }

    @GET
    @Path("revisions/{revision}")
    public Response revision(@PathParam("revision") String id) {
        access.view(ConsoleAccess.Area.POLICY, "console/policy/revision", "revision=" + id);
        Map<String, String> files = filesOf(id);
        if (files == null) {
            throw access.notFound("no stored revision " + id, "No stored revision " + id
                    + ": the policy page lists the stored revisions.").backTo("/console/policy");
        }
        List<Activation> activations = QuarkusTransaction.requiringNew().call(() -> Activation.of(id));
        return Response.ok(Templates.revision(page.chrome("Revision " + id), id, files.entrySet().stream().toList(), activations)).build();
    }

    @GET
    @Path("diff")
    public Response diff(@QueryParam("from") String from, @QueryParam("to") String to) {
        access.view(ConsoleAccess.Area.POLICY, "console/policy/diff", "from=" + from + " to=" + to);
        Map<String, String> a = from == null ? null : filesOf(from);
        Map<String, String> b = to == null ? null : filesOf(to);
        if (a == null || b == null) {
            String missing = a == null && b == null ? "neither 'from' (" + from + ") nor 'to' (" + to + ") is"
                    : a == null ? "'from' (" + from + ") is not" : "'to' (" + to + ") is not";
            throw access.notFound(missing + " a stored revision", "Nothing to compare: " + missing
                    + " a stored revision. Both must be; the policy page lists the stored revisions.").backTo("/console/policy");
        }
        return Response.ok(Templates.diff(page.chrome("Diff"), from, to, RevisionDiff.of(a, b))).build();
    }

    /**
     * The stored revision's files, or null if none is stored as {@code id}. Files changed in the database since they
     * were stored are not shown: the view let in is then on record as not answered ({@code altered}), 409.
     */
    private Map<String, String> filesOf(String id) {
        try {
            return StoredRevision.checkedFiles(id);
        } catch (StoredRevision.Altered e) {
            throw new ConsoleRefusal(409, e.getMessage(), access.notAnswered("altered", e.getMessage())).backTo("/console/policy");
        }
    }
}
