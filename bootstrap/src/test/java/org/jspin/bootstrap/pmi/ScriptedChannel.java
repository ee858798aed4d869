package org.jspin.bootstrap.pmi;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/** A {@link PmiLineChannel} that answers from a script: each queued reply is read once; then reads time out (or end). */
final class ScriptedChannel implements PmiLineChannel {
    final List<String> written = new ArrayList<>();
    private final Deque<String> replies = new ArrayDeque<>();
    private final boolean endsAfterScript;
    boolean closed;

    ScriptedChannel(boolean endsAfterScript, String... replies) {
        this.endsAfterScript = endsAfterScript;
        this.replies.addAll(List.of(replies));
    }

    @Override
    public void writeLine(String line, long deadlineNanos) throws IOException {
        if (closed) {
            throw new IOException("closed");
        }
        written.add(line);
    }

    @Override
    public String readLine(long deadlineNanos) throws IOException {
        if (!replies.isEmpty()) {
            return replies.poll();
        }
        if (endsAfterScript) {
            throw new EOFException("end of script");
        }
        throw new SocketTimeoutException("nothing more in the script");
    }

    @Override
    public String describe() {
        return "script";
    }

    @Override
    public void close() {
        closed = true;
    }
}
