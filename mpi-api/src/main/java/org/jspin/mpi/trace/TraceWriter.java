package org.jspin.mpi.trace;

import java.io.IOException;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * Writes the lines of one rank's trace file (docs/trace-format.md), one method per kind of line;
 * it knows the format's words and order of fields, nothing of labels, clocks or datatypes.
 */
final class TraceWriter {
    /** The format's version, the second word of the first line. */
    static final int VERSION = 1;

    private final TraceBuffer out;
    private final String where;

    /** @param where the file the lines go to, for errors */
    TraceWriter(TraceBuffer out, String where) {
        this.out = out;
        this.where = where;
    }

    /** {@code jspin-trace 1 rank <r> of <R>} */
    void header(int rank, int size) {
        out.text("jspin-trace").number(VERSION).word("rank").number(rank).word("of").number(size);
        end();
    }

    /** {@code type <id> <json>} */
    void type(long id, String json) {
        out.text("type").number(id).word(json);
        end();
    }

    /** {@code calc <label> <ns>} */
    void calc(long label, long ns) {
        out.text("calc").number(label).number(ns);
        end();
    }

    /** {@code mark <label>} */
    void mark(long label) {
        out.text("mark").number(label);
        end();
    }

    /** {@code send|isend <label> to <peer> tag <tag> ctx <ctx> bytes <n> type <id> count <c>} */
    void send(boolean blocking, long label, int to, int tag, int ctx, long bytes, long type, long count) {
        out.text(blocking ? "send" : "isend").number(label).word("to").number(to);
        transfer(tag, ctx, bytes, type, count);
        end();
    }

    /** {@code irecv <label> from <src> tag <tag> ctx <ctx> bytes <n> type <id> count <c>} */
    void irecv(long label, int from, int tag, int ctx, long bytes, long type, long count) {
        out.text("irecv").number(label).word("from").number(from);
        transfer(tag, ctx, bytes, type, count);
        end();
    }

    /** {@code recv <label> from <src> tag <tag> ctx <ctx> bytes <n> type <id> count <c> matched <from> <tag'>} */
    void recv(long label, int from, int tag, int ctx, long bytes, long type, long count, int matchedFrom,
              int matchedTag) {
        out.text("recv").number(label).word("from").number(from);
        transfer(tag, ctx, bytes, type, count);
        out.word("matched").number(matchedFrom).number(matchedTag);
        end();
    }

    /** {@code done <label> bytes <n> matched <from> <tag'>} */
    void done(long label, long bytes, int matchedFrom, int matchedTag) {
        out.text("done").number(label).word("bytes").number(bytes).word("matched").number(matchedFrom)
                .number(matchedTag);
        end();
    }

    /** {@code wait <label> on <l1> ...}, naming the first {@code n} of {@code on}. */
    void waitOn(long label, long[] on, int n) {
        out.text("wait").number(label).word("on");
        for (int i = 0; i < n; i++) {
            out.number(on[i]);
        }
        end();
    }

    /** Writes out whatever is buffered. */
    void drain() {
        try {
            out.drain();
        } catch (IOException e) {
            throw failed(e);
        }
    }

    private void transfer(int tag, int ctx, long bytes, long type, long count) {
        out.word("tag").number(tag).word("ctx").number(ctx).word("bytes").number(bytes).word("type").number(type)
                .word("count").number(count);
    }

    private MpiException failed(IOException e) {
        return new MpiException(ErrorClass.ERR_OTHER, "cannot write the trace file " + where + ": " + e.getMessage(), e);
    }

    private void end() {
        try {
            out.endLine();
        } catch (IOException e) {
            throw failed(e);
        }
    }
}
