package dev.quaestor.cases;

import dev.quaestor.audit.record.SealKey;
import io.quarkus.qute.TemplateData;
import java.time.Instant;
import java.util.List;

/** A case as its members see it, read in one transaction: what it groups, who works on it, their notes. */
@TemplateData
public record CaseView(long id, String title, String description, String createdBy, Instant createdAt, String sealKey,
        List<Member> members, List<Search> searches, List<Request> requests, List<Note> notes) {

    @TemplateData
    public record Member(String member, String addedBy, Instant addedAt) {
    }

    @TemplateData
    public record Search(long id, String name, String query, String addedBy, Instant addedAt) {
    }

    @TemplateData
    public record Request(String requestId, String addedBy, Instant addedAt) {
    }

    /**
     * A note, with the HMAC of its text under the case's key that its record ({@code added note <id>}) holds in place of
     * the text (null while the case has no key).
     */
    @TemplateData
    public record Note(long id, String author, Instant writtenAt, String text, String hmac) {
    }

    /** The case as its members see it; {@code sealKey} is the key its records seal its text under, in hex (null: none yet). */
    static CaseView of(AuditCase c) {
        SealKey key = CaseSeal.known(c);
        return new CaseView(c.id, c.title, c.description, c.createdBy, c.createdAt, key == null ? null : key.hex(),
                c.members.stream().map(m -> new Member(m.member, m.addedBy, m.addedAt)).toList(),
                c.searches.stream().map(s -> new Search(s.id, s.name, s.query, s.addedBy, s.addedAt)).toList(),
                c.requests.stream().map(r -> new Request(r.requestId, r.addedBy, r.addedAt)).toList(),
                c.notes.stream().map(n -> new Note(n.id, n.author, n.writtenAt, n.text, key == null ? null : key.hmac(n.text))).toList());
    }

    /** The uri its audit records are written under. */
    public String uri() {
        return AuditCase.uriOf(id);
    }
}
