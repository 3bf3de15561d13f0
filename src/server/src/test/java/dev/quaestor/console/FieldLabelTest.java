package dev.quaestor.console;

import dev.quaestor.evidence.RecordField;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class FieldLabelTest {

    @Test
    void aPageListsTheFormatsFieldsInItsOrderThenTheHash() {
        var expected = new java.util.ArrayList<>(Arrays.stream(RecordField.values())
                .filter(f -> f != RecordField.V && f != RecordField.REQUEST && f != RecordField.URIS)
                .map(RecordField::formatName).toList());
        expected.add("hash");
        assertEquals(expected, FieldLabel.ALL.stream().map(FieldLabel::name).toList());
    }

    @Test
    void instantsAreTimesAndEveryLabelIsWritten() {
        assertEquals(List.of("time", "first", "last"),
                FieldLabel.ALL.stream().filter(FieldLabel::time).map(FieldLabel::name).toList());
        FieldLabel.ALL.forEach(f -> assertFalse(f.label().isBlank(), f.name()));
    }

    @Test
    void anErrorCodeIsShownWithWhatItMeans() {
        var error = FieldLabel.ALL.stream().filter(f -> f.name().equals("error")).findFirst().orElseThrow();
        assertEquals("-32003 (refused by the policy)", error.shown("-32003"));
        assertEquals("-1", error.shown("-1"));
        var uri = FieldLabel.ALL.stream().filter(f -> f.name().equals("uri")).findFirst().orElseThrow();
        assertEquals("-32003", uri.shown("-32003"));
    }
}
