package dev.quaestor.evidence.cli;

import dev.quaestor.evidence.check.Report;
import dev.quaestor.evidence.write.FlatJsonWriter;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * {@code verify --json}: the report as one JSON object, for tools: {@code verified}, {@code records}, each log's
 * summary, each problem with its kind, place, words and evidence ({@code expected}, {@code found}, {@code involved}:
 * the lines), and the warnings.
 */
final class ReportJson {

    private final StringBuilder out = new StringBuilder(4096);

    private ReportJson() {
    }

    static String of(Report r) {
        var j = new ReportJson();
        j.out.append("{\"verified\":").append(r.ok()).append(",\"records\":").append(r.records()).append(",\"logs\":");
        j.array(r.logs(), (s, o) -> {
            j.field("log", s.log()).append(',');
            o.append("\"records\":").append(s.records()).append(",\"firstSeq\":").append(s.firstSeq()).append(",\"lastSeq\":")
                    .append(s.lastSeq()).append(',');
            j.field("formats", s.formats()).append(",\"checkpoints\":").append(s.checkpoints()).append(",\"signedThrough\":")
                    .append(s.signedThrough()).append(",\"anchors\":").append(s.anchors()).append(",\"anchoredThrough\":")
                    .append(s.anchoredThrough()).append(',');
            j.field("anchoredAt", s.anchoredAt() == null ? null : s.anchoredAt().toString()).append(",\"archivedThrough\":")
                    .append(s.archivedThrough()).append(",\"nodes\":").append(s.nodes()).append(",\"broken\":").append(s.broken());
        });
        j.out.append(",\"problems\":");
        j.array(r.problems(), (p, o) -> {
            j.field("kind", p.kind().name()).append(',');
            j.field("log", p.log()).append(",\"seq\":").append(p.seq()).append(",\"line\":").append(p.line()).append(',');
            j.field("message", p.message()).append(',');
            j.field("expected", p.evidence().expected()).append(',');
            j.field("found", p.evidence().found()).append(",\"involved\":");
            j.array(p.evidence().involved(), (i, oi) -> j.field("what", i.what()).append(",\"line\":").append(i.line()));
        });
        j.out.append(",\"warnings\":[");
        for (int i = 0; i < r.warnings().size(); i++) {
            j.out.append(i == 0 ? "" : ",");
            FlatJsonWriter.string(r.warnings().get(i), j.out);
        }
        return j.out.append("]}\n").toString();
    }

    private <T> void array(List<T> items, BiConsumer<T, StringBuilder> object) {
        out.append('[');
        for (int i = 0; i < items.size(); i++) {
            out.append(i == 0 ? "{" : ",{");
            object.accept(items.get(i), out);
            out.append('}');
        }
        out.append(']');
    }

    private StringBuilder field(String name, String value) {
        out.append('"').append(name).append("\":");
        if (value == null) {
            return out.append("null");
        }
        FlatJsonWriter.string(value, out);
        return out;
    }
}
