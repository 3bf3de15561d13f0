package dev.quaestor.support;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * The pages and the text of a PDF as Chromium prints it (Skia's writer: plain objects, Flate-compressed streams, fonts
 * with a {@code ToUnicode} map), read without a PDF library: enough for a test to count pages and find a string on
 * paper. Text is the shown strings of every content stream in order, each through its font's {@code ToUnicode} map.
 */
public final class PdfText {

    private static final Pattern OBJECT = Pattern.compile("(\\d+) 0 obj(.*?)endobj", Pattern.DOTALL);
    private static final Pattern PAGE = Pattern.compile("/Type\\s*/Page(?![s\\w])");
    private static final Pattern TO_UNICODE = Pattern.compile("/ToUnicode\\s+(\\d+) 0 R");
    private static final Pattern FONT_REF = Pattern.compile("/([A-Za-z0-9_.+-]+)\\s+(\\d+) 0 R");
    private static final Pattern FONTS = Pattern.compile("/Font\\s*<<(.*?)>>", Pattern.DOTALL);
    private static final Pattern CONTENT = Pattern.compile("/([A-Za-z0-9_.+-]+)\\s+[-\\d.]+\\s+Tf|<([0-9A-Fa-f\\s]+)>");
    private static final Pattern BFCHAR = Pattern.compile("beginbfchar(.*?)endbfchar", Pattern.DOTALL);
    private static final Pattern BFRANGE = Pattern.compile("beginbfrange(.*?)endbfrange", Pattern.DOTALL);
    private static final Pattern HEX_PAIR = Pattern.compile("<([0-9A-Fa-f]+)>\\s*<([0-9A-Fa-f]+)>");
    private static final Pattern RANGE = Pattern.compile("<([0-9A-Fa-f]+)>\\s*<([0-9A-Fa-f]+)>\\s*(<([0-9A-Fa-f]+)>|\\[([^\\]]*)\\])");

    private final int pages;
    private final String text;

    private PdfText(int pages, String text) {
        this.pages = pages;
        this.text = text;
    }

    public int pages() {
        return pages;
    }

    /** The text shown, string after string, with no separators. */
    public String text() {
        return text;
    }

    public static PdfText of(byte[] pdf) {
        String raw = new String(pdf, StandardCharsets.ISO_8859_1);
        Map<String, String> dicts = new HashMap<>();
        Map<String, String> streams = new HashMap<>();
        Matcher m = OBJECT.matcher(raw);
        while (m.find()) {
            String body = m.group(2);
            int s = body.indexOf("stream");
            dicts.put(m.group(1), s < 0 ? body : body.substring(0, s));
            if (s >= 0) {
                int start = s + "stream".length();
                while (start < body.length() && (body.charAt(start) == '\r' || body.charAt(start) == '\n')) {
                    start++;
                }
                streams.put(m.group(1), inflate(body.substring(start).getBytes(StandardCharsets.ISO_8859_1)));
            }
        }
        int pages = (int) dicts.values().stream().mapToLong(d -> PAGE.matcher(d).results().count()).sum();
        // Font resource names to their ToUnicode maps.
        Map<String, Map<Integer, String>> cmaps = new HashMap<>();
        for (String d : dicts.values()) {
            Matcher fonts = FONTS.matcher(d);
            while (fonts.find()) {
                Matcher ref = FONT_REF.matcher(fonts.group(1));
                while (ref.find()) {
                    String font = dicts.getOrDefault(ref.group(2), "");
                    Matcher tu = TO_UNICODE.matcher(font);
                    if (tu.find() && streams.containsKey(tu.group(1))) {
                        cmaps.put(ref.group(1), cmap(streams.get(tu.group(1))));
                    }
                }
            }
        }
        var out = new StringBuilder();
        for (var e : streams.entrySet()) {
            String content = e.getValue();
            if (!content.contains("Tf") || content.contains("begincmap")) {
                continue;
            }
            Map<Integer, String> current = Map.of();
            Matcher c = CONTENT.matcher(content);
            while (c.find()) {
                if (c.group(1) != null) {
                    current = cmaps.getOrDefault(c.group(1), Map.of());
                } else {
                    String hex = c.group(2).replaceAll("\\s", "");
                    for (int i = 0; i + 4 <= hex.length(); i += 4) {
                        out.append(current.getOrDefault(Integer.parseInt(hex.substring(i, i + 4), 16), ""));
                    }
                }
            }
        }
        return new PdfText(pages, out.toString());
    }

    private static Map<Integer, String> cmap(String text) {
        var map = new HashMap<Integer, String>();
        Matcher chars = BFCHAR.matcher(text);
        while (chars.find()) {
            Matcher p = HEX_PAIR.matcher(chars.group(1));
            while (p.find()) {
                map.put(Integer.parseInt(p.group(1), 16), utf16(p.group(2)));
            }
        }
        Matcher ranges = BFRANGE.matcher(text);
        while (ranges.find()) {
            Matcher r = RANGE.matcher(ranges.group(1));
            while (r.find()) {
                int lo = Integer.parseInt(r.group(1), 16);
                int hi = Integer.parseInt(r.group(2), 16);
                if (r.group(4) != null) {
                    int first = Integer.parseInt(r.group(4), 16);
                    for (int code = lo; code <= hi; code++) {
                        map.put(code, new String(Character.toChars(first + code - lo)));
                    }
                } else {
                    Matcher each = Pattern.compile("<([0-9A-Fa-f]+)>").matcher(r.group(5));
                    for (int code = lo; code <= hi && each.find(); code++) {
                        map.put(code, utf16(each.group(1)));
                    }
                }
            }
        }
        return map;
    }

    private static String utf16(String hex) {
        byte[] b = new byte[hex.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return new String(b, StandardCharsets.UTF_16BE);
    }

    private static String inflate(byte[] data) {
        var inflater = new Inflater();
        inflater.setInput(data);
        var out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try {
            while (!inflater.finished()) {
                int n = inflater.inflate(buf);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    break;
                }
                out.write(buf, 0, n);
            }
        } catch (DataFormatException e) {
            return ""; // not a Flate stream (an image, a font program): no text in it
        } finally {
            inflater.end();
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }
}
