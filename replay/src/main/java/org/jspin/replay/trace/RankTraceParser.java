package org.jspin.replay.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.replay.cost.MessageType;
import org.jspin.replay.schedule.Schedule;
import org.jspin.replay.schedule.ScheduleBuilder;
import org.jspin.replay.text.Tokenizer;

/**
 * One {@code rank-<r>.trace} file into a {@link ScheduleBuilder}: operations in file order, each after
 * the previous one completed (GOAL's {@code requires}) or, after a nonblocking start, started
 * ({@code irequires}); a {@code wait} is a zero-length calc requiring what it names.
 */
final class RankTraceParser {
    private final String file;
    private final int rank;
    private final int ranks;
    private final ScheduleBuilder b;
    private final TraceTypes types;
    private final Map<Long, Integer> goalTags;
    private final Map<Integer, MessageType> declared = new HashMap<>();
    private final Map<Long, Integer> opOfLabel = new HashMap<>();
    private final Map<Integer, Long> ctxOfIrecv = new HashMap<>();
    private int line;
    private final Tokenizer tokens = new Tokenizer("");
    private String text;
    private String[] t;
    private int prev = -1;
    private boolean prevNonblocking;
    private long lastLabel = Long.MIN_VALUE;

    RankTraceParser(String file, int rank, int ranks, ScheduleBuilder b, TraceTypes types, Map<Long, Integer> goalTags) {
        this.file = file;
        this.rank = rank;
        this.ranks = ranks;
        this.b = b;
        this.types = types;
        this.goalTags = goalTags;
    }

    void parse(BufferedReader in) throws IOException {
        String first = in.readLine();
        line = 1;
        String header = "jspin-trace 1 rank " + rank + " of " + ranks;
        if (first == null || !first.trim().equals(header)) {
            throw error("the first line is '" + first + "', not '" + header + "'");
        }
        b.beginRank(rank, line);
        for (String l = in.readLine(); l != null; l = in.readLine()) {
            line++;
            text = l.trim();
            if (text.isEmpty() || text.startsWith("#")) continue;
            tokens.split(text);
            t = tokens.words();
            record();
        }
    }

    private void record() {
        switch (t[0]) {
            case "type" -> {
                int id = (int) number(1, "a type id");
                if (id < 1) throw error("type id " + id + " is not at least 1");
                if (t.length < 3) throw error("type " + id + " has no description");
                MessageType type;
                try {
                    // the description as written, spaces inside it kept
                    type = types.of(text.substring(text.indexOf(t[1], t[0].length()) + t[1].length()).trim());
                } catch (MpiException e) {
                    throw error("type " + id + ": " + e.reason());
                }
                if (declared.putIfAbsent(id, type) != null) throw error("type " + id + " is declared twice");
            }
            case "calc" -> {
                long label = label();
                count(3);
                op(label, b.calc(number(2, "nanoseconds"), 0, "l" + label, line), false);
            }
            case "mark" -> {
                long label = label();
                count(2);
                op(label, b.mark(0, "l" + label, line), false);
            }
            case "send", "isend" -> {
                long label = label();
                keyword(2, "to");
                count(14);
                int peer = (int) number(3, "a rank");
                int op = b.send(peer, goalTag(number(7, "a ctx"), number(5, "a tag")), bytes(9), 0, 0, "l" + label, line);
                datatype(op, 10);
                op(label, op, t[0].equals("isend"));
            }
            case "recv" -> {
                long label = label();
                keyword(2, "from");
                count(17);
                keyword(14, "matched");
                int from = (int) number(15, "a rank");
                long ctx = number(7, "a ctx");
                int op = b.recv(from, goalTag(ctx, number(16, "a tag")), bytes(9), 0, 0, "l" + label, line);
                datatype(op, 10);
                op(label, op, false);
            }
            case "irecv" -> {
                long label = label();
                keyword(2, "from");
                count(14);
                long ctx = number(7, "a ctx");
                int op = b.recv((int) number(3, "a rank"), goalTag(ctx, number(5, "a tag")), bytes(9), 0, 0,
                        "l" + label, line);
                datatype(op, 10);
                ctxOfIrecv.put(op, ctx);
                op(label, op, true);
            }
            case "done" -> {
                count(7);
                keyword(2, "bytes");
                keyword(4, "matched");
                int op = known(number(1, "a label"));
                Long ctx = ctxOfIrecv.get(op);
                if (ctx == null) throw error("done names label " + t[1] + ", which is not an irecv");
                b.matched(op, (int) number(5, "a rank"), goalTag(ctx, number(6, "a tag")), bytes(3));
            }
            case "wait" -> {
                long label = label();
                keyword(2, "on");
                int wait = b.calc(0, 0, "l" + label, line);
                boolean onPrev = false;
                for (int i = 3; i < t.length; i++) {
                    int on = known(number(i, "a label"));
                    onPrev |= on == prev;
                    b.requires(wait, on, line);
                }
                if (prev >= 0 && !onPrev) link(wait);
                remember(label, wait, false);
            }
            default -> throw error("unknown record '" + t[0] + "' (expected type, calc, mark, send, isend, recv,"
                    + " irecv, done or wait)");
        }
    }

    private void op(long label, int op, boolean nonblocking) {
        if (prev >= 0) link(op);
        remember(label, op, nonblocking);
    }

    private void link(int op) {
        if (prevNonblocking) b.irequires(op, prev, line); else b.requires(op, prev, line);
    }

    private void remember(long label, int op, boolean nonblocking) {
        opOfLabel.put(label, op);
        prev = op;
        prevNonblocking = nonblocking;
    }

    private long label() {
        long label = number(1, "a label");
        if (label <= lastLabel) throw error("label " + label + " does not increase (after " + lastLabel + ")");
        lastLabel = label;
        return label;
    }

    private int known(long label) {
        Integer op = opOfLabel.get(label);
        if (op == null) throw error("names label " + label + ", which no earlier line of rank " + rank + " defines");
        return op;
    }

    private void datatype(int op, int at) {
        keyword(at, "type");
        keyword(at + 2, "count");
        int id = (int) number(at + 1, "a type id");
        MessageType type = declared.get(id);
        if (type == null) throw error("type " + id + " is used before it is declared");
        b.datatype(op, type, number(at + 3, "a count"));
    }

    private long bytes(int at) {
        if (at == 9) {
            keyword(4, "tag");
            keyword(6, "ctx");
        }
        keyword(at - 1, "bytes");
        return number(at, "a byte count");
    }

    /** (ctx, tag) to one GOAL tag for the whole job; any tag stays any tag. */
    private int goalTag(long ctx, long tag) {
        if (tag == Schedule.ANY) return Schedule.ANY;
        if (tag < 0 || tag > Integer.MAX_VALUE) throw error("tag " + tag + " is neither -1 nor in 0..2^31-1");
        return goalTags.computeIfAbsent((ctx << 32) | tag, k -> goalTags.size());
    }

    private void count(int fields) {
        if (t.length != fields) throw error("'" + t[0] + "' has " + t.length + " fields, not " + fields);
    }

    private void keyword(int at, String word) {
        if (at >= t.length || !t[at].equals(word)) {
            throw error((at < t.length ? "'" + t[at] + "'" : "the end of the line") + " where '" + word + "' was expected");
        }
    }

    private long number(int at, String what) {
        if (at >= t.length) throw error("the line ends where " + what + " was expected");
        try {
            return Long.parseLong(t[at]);
        } catch (NumberFormatException e) {
            throw error("'" + t[at] + "' where " + what + " was expected");
        }
    }

    private MpiException error(String what) {
        return new MpiException(ErrorClass.ERR_ARG, file + ":" + line + ": " + what);
    }
}
