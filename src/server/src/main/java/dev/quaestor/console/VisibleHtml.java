package dev.quaestor.console;

import io.quarkus.qute.EngineBuilder;
import io.quarkus.qute.Expression;
import io.quarkus.qute.HtmlEscaper;
import io.quarkus.qute.ResultMapper;
import io.quarkus.qute.TemplateNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;

/**
 * Every value a console page writes, not only a record's fields, is {@link VisibleText} before it is HTML-escaped: a
 * subject, client, URI, case title, note or message holding a right-to-left override or a zero-width character reads
 * as the characters it holds ({@code agent⟨U+202E⟩X/1}), never as a browser would lay them out ({@code agent1/X}).
 * It takes the place of Qute's HTML escaper (it runs before it, and escapes as it does); raw values are left alone.
 */
@ApplicationScoped
public class VisibleHtml implements ResultMapper {

    /** Above Qute's escapers (the default priority, 1): of the mappers that apply, only the first is used. */
    private static final int PRIORITY = 10;

    private final HtmlEscaper html = new HtmlEscaper(List.of("text/html"));

    void register(@Observes EngineBuilder engine) {
        engine.addResultMapper(this);
    }

    @Override
    public int getPriority() {
        return PRIORITY;
    }

    @Override
    public boolean appliesTo(TemplateNode.Origin origin, Object result) {
        return html.appliesTo(origin, result);
    }

    @Override
    public String map(Object result, Expression expression) {
        return html.map(VisibleText.of(result.toString()), expression);
    }
}
