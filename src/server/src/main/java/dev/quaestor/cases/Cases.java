package dev.quaestor.cases;

import dev.quaestor.audit.record.SealKey;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Opening, reading and changing cases. Every change runs in a transaction of its own: the case is read, the caller's
 * sight of it and the change are checked ({@link CaseRefusal}, before anything is written), the change is made, then
 * put on record ({@link ChangeRecorder}) before the transaction commits, so a change whose record cannot be committed is
 * not stored; a change recorded and then not committed gets a further record saying so ({@link ChangeCommit}).
 *
 * <p>A record names what a change did and to what (the case's, note's and search's ids, members and request ids), never
 * what staff wrote into the case: every auditor may read the trail, and a case is for its members only. Text (a
 * title, a description, a note, a search's name and filters) is on record only as its HMAC under the case's key
 * ({@link CaseSeal}), which its members are given to check a record against the text.
 * Members are named: adding or removing one grants or takes away sight of the case, and the trail must say to whom.
 */
@ApplicationScoped
public class Cases {

    static final int MAX_MEMBERS = 100;
    static final int MAX_ITEMS = 1000;

    /** The most cases a page lists. */
    public static final int PAGE = 50;

    /**
     * A page of the cases the caller may see (their own, or every case for the case administrator role), newest first,
     * from below case {@code before} (from the newest if null).
     */
    public CasePage visibleTo(Staff staff, Long before) {
        return QuarkusTransaction.requiringNew().call(() -> {
            var found = AuditCase.page(staff.caseAdmin() ? null : staff.subject(), before, PAGE + 1);
            return found.size() > PAGE ? new CasePage(List.copyOf(found.subList(0, PAGE)), found.get(PAGE - 1).id())
                    : new CasePage(found, null);
        });
    }

    /** A page's {@code before} as given (null or blank: the newest page); 400 if it is not a case's id. */
    public static Long cursor(String before) {
        if (before == null || before.isBlank()) {
            return null;
        }
        try {
            long id = Long.parseLong(before.strip());
            if (id > 0) {
                return id;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw CaseRefusal.invalid("'before' is not a cursor of the case list: " + (before.length() > 40 ? before.substring(0, 40) + "…" : before.strip()));
    }

    /** The case, if the caller may see it; else {@link CaseRefusal} (404, as for one that does not exist). */
    public CaseView open(long id, Staff staff) {
        return QuarkusTransaction.requiringNew().call(() -> CaseView.of(visible(id, staff)));
    }

    /** The case's request ids and searches, if the caller may see it. */
    public CaseContents contents(long id, Staff staff) {
        return QuarkusTransaction.requiringNew().call(() -> {
            AuditCase c = visible(id, staff);
            return new CaseContents(c.id, c.title, c.requests.stream().map(r -> r.requestId).toList(),
                    c.searches.stream().map(s -> SearchFilters.parse(s.query)).toList());
        });
    }

    public CaseView create(Staff staff, NewCase spec, ChangeRecorder recorder) {
        String title = Checked.text("a title", spec.title(), 256);
        String description = Checked.optional("the description", spec.description(), 4096);
        var members = new LinkedHashSet<String>();
        members.add(staff.subject());
        for (String m : spec.members() == null ? List.<String>of() : spec.members()) {
            members.add(Checked.text("a member", m, 2048));
        }
        if (members.size() > MAX_MEMBERS) {
            throw CaseRefusal.invalid("a case has at most " + MAX_MEMBERS + " members");
        }
        return ChangeCommit.run(recorder, commit -> {
            Instant now = Instant.now();
            var c = new AuditCase();
            c.title = title;
            c.description = description;
            c.createdBy = staff.subject();
            c.createdAt = now;
            SealKey key = SealKey.fresh();
            c.sealKey = key.bytes();
            for (String m : members) {
                c.members.add(member(c, m, staff, now));
            }
            c.persistAndFlush();
            commit.record(c.uri(), "opened case " + c.id + "; " + key.sealed("title", title) + "; "
                    + key.sealed("description", description) + "; members " + members);
            return CaseView.of(c);
        });
    }

    public CaseView addMember(long id, Staff staff, String member, ChangeRecorder recorder) {
        String who = Checked.text("a member", member, 2048);
        return change(id, staff, c -> {
            if (c.hasMember(who)) {
                throw CaseRefusal.conflict(who + " is already a member of case " + id);
            }
            if (c.members.size() >= MAX_MEMBERS) {
                throw CaseRefusal.invalid("a case has at most " + MAX_MEMBERS + " members");
            }
            c.members.add(member(c, who, staff, Instant.now()));
            return "added member " + who;
        }, recorder);
    }

    public CaseView removeMember(long id, Staff staff, String member, ChangeRecorder recorder) {
        return change(id, staff, c -> {
            var found = c.members.stream().filter(m -> m.member.equals(member)).findFirst()
                    .orElseThrow(() -> CaseRefusal.conflict(member + " is not a member of case " + id));
            if (c.members.size() == 1) {
                throw CaseRefusal.conflict("the last member of a case cannot leave it: add another first");
            }
            c.members.remove(found);
            return "removed member " + member;
        }, recorder);
    }

    /** A search as a case keeps it: its name, and its filters as a query string in their usual order. */
    public record CheckedSearch(String name, String query) {
    }

    /**
     * The search {@link #addSearch} would add, checked as it checks it (without the case, nothing stored or recorded);
     * {@link CaseRefusal} (400) when it would be refused.
     */
    public static CheckedSearch checkSearch(String name, String query) {
        String label = Checked.text("a name", name, 128);
        String normal = SearchFilters.parse(query).queryString();
        if (normal.length() > 4096) {
            throw CaseRefusal.invalid("the search is longer than 4096 characters");
        }
        return new CheckedSearch(label, normal);
    }

    public CaseView addSearch(long id, Staff staff, String name, String query, ChangeRecorder recorder) {
        var checked = checkSearch(name, query);
        String label = checked.name();
        String normal = checked.query();
        return change(id, staff, c -> {
            room(c.searches);
            var s = new CaseSearch();
            s.auditCase = c;
            s.name = label;
            s.query = normal;
            s.addedBy = staff.subject();
            s.addedAt = Instant.now();
            s.persistAndFlush();
            c.searches.add(s);
            SealKey key = CaseSeal.of(c);
            return "added search " + s.id + "; " + key.sealed("name", label) + "; " + key.sealed("filters", normal);
        }, recorder);
    }

    /**
     * Adds a request, looking whether the audit log holds records of it ({@code inLog}, a read of the audit trail) only
     * once the change is on record: if it holds none, the change is not stored and is refused (400), and that it was not
     * stored is on record under the change's request id ({@link ChangeCommit}). The look runs outside the change's
     * transaction, on the log's own connections.
     */
    public CaseView addRequest(long id, Staff staff, String requestId, Predicate<String> inLog, ChangeRecorder recorder) {
        String rid = Checked.text("a request id", requestId, 64);
        return change(id, staff, c -> addRequest(c, staff, rid), c -> {
            if (!QuarkusTransaction.suspendingExisting().call(() -> inLog.test(rid))) {
                throw noRecordOf(rid);
            }
        }, recorder);
    }

    private static CaseRefusal noRecordOf(String rid) {
        return CaseRefusal.invalid("the audit log holds no record of request " + rid);
    }

    /** Adds request {@code rid} to the case, unless it is in it already or the case is full; returns what it did. */
    private static String addRequest(AuditCase c, Staff staff, String rid) {
        if (c.hasRequest(rid)) {
            throw CaseRefusal.conflict("request " + rid + " is already in case " + c.id);
        }
        room(c.requests);
        var r = new CaseRequest();
        r.auditCase = c;
        r.requestId = rid;
        r.addedBy = staff.subject();
        r.addedAt = Instant.now();
        c.requests.add(r);
        return "added request " + rid;
    }

    public CaseView addNote(long id, Staff staff, String text, ChangeRecorder recorder) {
        String body = Checked.text("a note", text, 8000);
        return change(id, staff, c -> {
            room(c.notes);
            var n = new CaseNote();
            n.auditCase = c;
            n.author = staff.subject();
            n.writtenAt = Instant.now();
            n.text = body;
            n.persistAndFlush();
            c.notes.add(n);
            return "added note " + n.id + "; " + CaseSeal.of(c).sealed("text", body);
        }, recorder);
    }

    /** Reads the case the caller may see, makes {@code change} (which returns what it did), records it, then commits. */
    CaseView change(long id, Staff staff, Function<AuditCase, String> change, ChangeRecorder recorder) {
        return change(id, staff, change, c -> { }, recorder);
    }

    /** As above; {@code onRecord} checks the change once it is on record, before the commit (a refusal: not stored). */
    private CaseView change(long id, Staff staff, Function<AuditCase, String> change, Consumer<AuditCase> onRecord,
            ChangeRecorder recorder) {
        return ChangeCommit.run(recorder, commit -> {
            AuditCase c = visible(id, staff);
            String what = change.apply(c);
            c.persistAndFlush();
            commit.record(c.uri(), what);
            onRecord.accept(c);
            return CaseView.of(c);
        });
    }

    static AuditCase visible(long id, Staff staff) {
        AuditCase c = AuditCase.findById(id);
        if (c == null || !staff.sees(c)) {
            throw CaseRefusal.notFound(id);
        }
        return c;
    }

    private static void room(List<?> items) {
        if (items.size() >= MAX_ITEMS) {
            throw CaseRefusal.invalid("a case holds at most " + MAX_ITEMS + " items of each kind");
        }
    }

    private static CaseMember member(AuditCase c, String who, Staff by, Instant at) {
        var m = new CaseMember();
        m.auditCase = c;
        m.member = who;
        m.addedBy = by.subject();
        m.addedAt = at;
        return m;
    }
}
