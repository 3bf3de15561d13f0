package dev.quaestor.audit.read;

import java.io.StringReader;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The audit and console CSV exports: one quoting rule, and no value a spreadsheet would compute. */
class ExportCsvTest {

    private static List<String> roundTrip(Map<String, String> record, List<String> columns) throws Exception {
        var out = new StringWriter();
        var csv = new ExportCsv(out, columns);
        csv.write(record::get);
        csv.flush();
        var rows = CSVFormat.RFC4180.parse(new StringReader(out.toString())).getRecords();
        assertEquals(2, rows.size(), out.toString());
        var header = new java.util.ArrayList<>(columns);
        header.add(ExportCsv.GUARD_COLUMN);
        assertEquals(header, rows.get(0).toList());
        return rows.get(1).toList();
    }

    /**
     * OWASP's list, tab and carriage return included: each shown as text, behind a leading quote; a sign before
     * anything but a number or one plain token is a formula too. The last column names the fields guarded.
     */
    @Test
    void everyFormulaStartIsDefusedIncludingTabAndCarriageReturn() throws Exception {
        var record = new HashMap<String, String>();
        var columns = List.of("eq", "plus", "minus", "at", "tab", "cr", "tabThenEq", "plain", "quoteFirst", "call", "sum");
        record.put("eq", "=1+1");
        record.put("plus", "+1+2");
        record.put("minus", "-1-cmd|' /C calc'!A0");
        record.put("at", "@SUM(A1)");
        record.put("tab", "\t=1+1");
        record.put("cr", "\r=1+1");
        record.put("tabThenEq", "\t");
        record.put("plain", "file:///docs/a=b");
        record.put("quoteFirst", "'=1");
        record.put("call", "-HYPERLINK(\"http://evil.example\")");
        record.put("sum", "+A1 B2");
        assertEquals(List.of("'=1+1", "'+1+2", "'-1-cmd|' /C calc'!A0", "'@SUM(A1)", "'\t=1+1", "'\r=1+1", "'\t", "file:///docs/a=b", "'=1",
                "'-HYPERLINK(\"http://evil.example\")", "'+A1 B2", "eq plus minus at tab cr tabThenEq call sum"), roundTrip(record, columns));
    }

    /** Numbers and identifiers stay as the record has them, findable: an error code, a session id that starts with a sign. */
    @Test
    void numbersAndIdentifiersAreLeftAsTheRecordHasThem() throws Exception {
        var record = new HashMap<String, String>();
        var columns = List.of("error", "session", "plus", "decimal", "exponent", "dash", "id");
        record.put("error", "-32003");
        record.put("session", "-Xk3f9_aQ.b~");
        record.put("plus", "+41");
        record.put("decimal", "-0.25");
        record.put("exponent", "+1e-5");
        record.put("dash", "-");
        record.put("id", "-alice");
        assertEquals(List.of("-32003", "-Xk3f9_aQ.b~", "+41", "-0.25", "+1e-5", "-", "-alice", ""), roundTrip(record, columns));
    }

    /**
     * A sign and then a further operator, or a cell reference, is a formula a spreadsheet computes ({@code -A1-B1} is
     * the difference of two cells, {@code -2-3} is -5): quoted. A plain signed number and a token with no further
     * operator stay as they are, even one that starts like a cell reference.
     */
    @Test
    void aFurtherOperatorOrACellReferenceAfterASignIsDefused() throws Exception {
        var record = new HashMap<String, String>();
        var columns = List.of("cells", "sum", "ref", "r1c1", "field", "dashedId", "error", "session", "name");
        record.put("cells", "-A1-B1");
        record.put("sum", "-2-3");
        record.put("ref", "+xfd9");
        record.put("r1c1", "-R2C3");
        record.put("field", "-A1.B");
        record.put("dashedId", "-Xk3f9_a-Q");
        record.put("error", "-32003");
        record.put("session", "-Xk3f9");
        record.put("name", "-Ryan");
        assertEquals(List.of("'-A1-B1", "'-2-3", "'+xfd9", "'-R2C3", "'-A1.B", "'-Xk3f9_a-Q", "-32003", "-Xk3f9", "-Ryan",
                "cells sum ref r1c1 field dashedId"), roundTrip(record, columns));
        for (String formula : List.of("-A1*2", "+1/2", "-2^3", "-1&1", "-1=1", "-(1)", "+A1")) {
            assertEquals("'" + formula, ExportCsv.defused(formula), formula);
        }
    }

    @Test
    void everyPresentValueIsQuotedAndAnAbsentOneLeftEmpty() throws Exception {
        var out = new StringWriter();
        var csv = new ExportCsv(out, List.of("v", "uri", "ua", "detail", "empty", "absent"));
        var record = new HashMap<String, String>();
        record.put("v", "2");
        record.put("uri", "file:///docs/a,b.md");
        record.put("ua", "curl \"8\"");
        record.put("detail", "line one\r\nline two");
        record.put("empty", "");
        csv.write(record::get);
        csv.flush();
        assertEquals("v,uri,ua,detail,empty,absent,quote_added_to\r\n\"2\",\"file:///docs/a,b.md\",\"curl \"\"8\"\"\",\"line one\r\nline two\",\"\",,\r\n",
                out.toString());
    }

    @Test
    void defusingLeavesOrdinaryValuesAlone() {
        assertEquals("alice", ExportCsv.defused("alice"));
        assertEquals("", ExportCsv.defused(""));
        assertNull(ExportCsv.defused(null));
        assertEquals("a=1", ExportCsv.defused("a=1"));
        assertEquals(" =1", ExportCsv.defused(" =1"), "a leading space is text already");
    }
}
