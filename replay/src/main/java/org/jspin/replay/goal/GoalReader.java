package org.jspin.replay.goal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.replay.schedule.Schedule;
import org.jspin.replay.schedule.ScheduleBuilder;
import org.jspin.replay.text.Tokenizer;

/**
 * Reads LogGOPSim's GOAL text (the grammar of its txt2bin): {@code num_ranks R}, then one
 * {@code rank r { ... }} block per rank in order, holding {@code [label:] send Nb to R [tag T] [cpu C]
 * [nic N]}, {@code [label:] recv Nb from R|-1 [tag T|-1] [cpu C] [nic N]}, {@code [label:] calc N
 * [cpu C]}, {@code a requires b} and {@code a irequires b}, one per line; {@code //} and
 * {@code /* *}{@code /} comments. Labels are per rank. Anything else, a label used before it is
 * defined or defined twice, and a cycle of dependencies are errors naming the file and line.
 */
public final class GoalReader {
    /** More ranks than any machine replays; bounds what a corrupt num_ranks line makes us allocate. */
    private static final long MAX_RANKS = 1 << 24;
    private static final Pattern IDENT = Pattern.compile("[a-zA-Z][a-zA-Z0-9_]*");

    private final String source;
    private ScheduleBuilder builder;
    private final Map<String, Integer> labels = new HashMap<>();
    private final Tokenizer tokens = new Tokenizer(":{}");
    private int line;
    private boolean inRank;
    private boolean inComment;

    private GoalReader(String source) {
        this.source = source;
    }

    /** @return the schedule in {@code file} */
    public static Schedule read(Path file) {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return read(file.toString(), in);
        } catch (IOException e) {
            throw new MpiException(ErrorClass.ERR_ARG, "cannot read GOAL file " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * @param source the name errors give the text
     * @param text   GOAL text
     * @return the schedule
     * @throws MpiException ERR_ARG naming {@code source} and the line of what is wrong
     */
    public static Schedule read(String source, Reader text) throws IOException {
        GoalReader r = new GoalReader(source);
        BufferedReader in = text instanceof BufferedReader b ? b : new BufferedReader(text);
        for (String l = in.readLine(); l != null; l = in.readLine()) {
            r.line++;
            r.statement(r.stripComments(l));
        }
        if (r.inRank) throw r.error("the file ends inside rank " + r.builder.currentRank() + "'s block (a missing '}')");
        if (r.builder == null) throw r.error("no num_ranks line");
        return r.builder.build();
    }

    private String stripComments(String l) {
        if (!inComment && l.indexOf('/') < 0) return l;
        StringBuilder out = new StringBuilder(l.length());
        int i = 0;
        while (i < l.length()) {
            if (inComment) {
                int end = l.indexOf("*/", i);
                if (end < 0) return out.toString();
                inComment = false;
                i = end + 2;
            } else if (l.startsWith("//", i)) {
                break;
            } else if (l.startsWith("/*", i)) {
                inComment = true;
                i += 2;
            } else {
                out.append(l.charAt(i++));
            }
        }
        return out.toString();
    }

    private void statement(String text) {
        if (tokens.split(text) == 0) return;
        String[] t = tokens.words();
        int i = 0;
        while (i < t.length) i = statement(t, i);
    }

    /** Parses one statement from token {@code i}; @return the index after it. */
    private int statement(String[] t, int i) {
        String first = t[i];
        if (first.equals("}")) {
            if (!inRank) throw error("'}' outside a rank block");
            inRank = false;
            return i + 1;
        }
        if (first.equals("num_ranks")) {
            if (builder != null) throw error("num_ranks given twice");
            if (inRank) throw error("num_ranks inside a rank block");
            builder = new ScheduleBuilder(source, (int) number(t, i + 1, "the number of ranks", MAX_RANKS));
            return i + 2;
        }
        if (first.equals("rank")) {
            if (builder == null) throw error("a rank block before num_ranks");
            if (inRank) throw error("a rank block inside rank " + builder.currentRank() + "'s (a missing '}')");
            int r = (int) number(t, i + 1, "a rank", Integer.MAX_VALUE);
            expect(t, i + 2, "{");
            builder.beginRank(r, line);
            labels.clear();
            inRank = true;
            return i + 3;
        }
        if (!inRank) throw error("'" + first + "' outside a rank block (expected num_ranks or rank N {)");
        String label = null;
        if (i + 1 < t.length && t[i + 1].equals(":")) {
            label = ident(first);
            i += 2;
            if (i >= t.length) throw error("label " + label + " has no operation");
        } else if (i + 2 < t.length && (t[i + 1].equals("requires") || t[i + 1].equals("irequires"))) {
            int op = lookup(ident(first));
            int on = lookup(ident(t[i + 2]));
            if (t[i + 1].equals("requires")) builder.requires(op, on, line); else builder.irequires(op, on, line);
            end(t, i + 3);
            return t.length;
        }
        int op = operation(t, i, label);
        if (label != null && labels.putIfAbsent(label, op) != null) {
            throw error("label " + label + " is defined twice in rank " + builder.currentRank());
        }
        return t.length;
    }

    private int operation(String[] t, int i, String label) {
        String op = t[i];
        switch (op) {
            case "calc" -> {
                long ns = number(t, i + 1, "calc's nanoseconds", Long.MAX_VALUE);
                int k = i + 2;
                int cpu = 0;
                if (k < t.length && t[k].equals("cpu")) {
                    cpu = (int) number(t, k + 1, "a cpu", 255);
                    k += 2;
                }
                end(t, k);
                return builder.calc(ns, cpu, label, line);
            }
            case "send", "recv" -> {
                boolean send = op.equals("send");
                int k = i + 1;
                String sizeToken = k < t.length ? t[k] : "";
                long bytes;
                if (sizeToken.endsWith("b")) {
                    bytes = parse(sizeToken.substring(0, sizeToken.length() - 1), "a size in bytes (Nb)", Long.MAX_VALUE);
                    k++;
                } else {
                    bytes = number(t, k, "a size in bytes (Nb)", Long.MAX_VALUE);
                    expect(t, k + 1, "b");
                    k += 2;
                }
                expect(t, k, send ? "to" : "from");
                int peer = k + 1 < t.length && !send && t[k + 1].equals("-1") ? Schedule.ANY
                        : (int) number(t, k + 1, "a rank", Integer.MAX_VALUE);
                k += 2;
                int tag = 0;
                int cpu = 0;
                int nic = 0;
                if (k < t.length && t[k].equals("tag")) {
                    tag = k + 1 < t.length && t[k + 1].equals("-1") ? Schedule.ANY : (int) number(t, k + 1, "a tag", 0xffffffffL);
                    k += 2;
                }
                if (k < t.length && t[k].equals("cpu")) {
                    cpu = (int) number(t, k + 1, "a cpu", 255);
                    k += 2;
                }
                if (k < t.length && t[k].equals("nic")) {
                    nic = (int) number(t, k + 1, "a nic", 255);
                    k += 2;
                }
                end(t, k);
                return send ? builder.send(peer, tag, bytes, cpu, nic, label, line)
                        : builder.recv(peer, tag, bytes, cpu, nic, label, line);
            }
            default -> throw error("unknown operation '" + op + "' (expected send, recv, calc, requires or irequires)");
        }
    }

    private int lookup(String label) {
        Integer op = labels.get(label);
        if (op == null) {
            throw error("a dependency names label " + label + ", which rank " + builder.currentRank()
                    + " has not defined (before this line)");
        }
        return op;
    }

    private String ident(String token) {
        if (!IDENT.matcher(token).matches()) throw error("'" + token + "' is not a label (a letter, then letters, digits or _)");
        return token;
    }

    private long number(String[] t, int k, String what, long max) {
        if (k >= t.length) throw error("the line ends where " + what + " was expected");
        return parse(t[k], what, max);
    }

    private long parse(String token, String what, long max) {
        if (!Tokenizer.isDigits(token)) {
            throw error("'" + token + "' where " + what + " was expected");
        }
        try {
            long v = Long.parseLong(token);
            if (v > max) throw error(token + " is larger than " + what + " may be (" + max + ")");
            return v;
        } catch (NumberFormatException e) {
            throw error(token + " is too large for " + what);
        }
    }

    private void expect(String[] t, int k, String word) {
        if (k >= t.length || !t[k].equals(word)) {
            throw error((k < t.length ? "'" + t[k] + "'" : "the end of the line") + " where '" + word + "' was expected");
        }
    }

    private void end(String[] t, int k) {
        if (k < t.length && !t[k].equals("}")) throw error("unexpected '" + t[k] + "' at the end of the line");
        if (k < t.length) {
            inRank = false;
            if (k + 1 < t.length) throw error("unexpected '" + t[k + 1] + "' after '}'");
        }
    }

    private MpiException error(String what) {
        return new MpiException(ErrorClass.ERR_ARG, source + ":" + line + ": " + what);
    }
}
