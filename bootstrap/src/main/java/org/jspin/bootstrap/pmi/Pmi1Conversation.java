package org.jspin.bootstrap.pmi;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.Set;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * Requests and their replies over one {@link PmiLineChannel}: each reply is parsed, checked to be the
 * one expected, and turned into an {@link MpiException} naming the request and the channel when it
 * is malformed, a refusal ({@code rc != 0}), late or missing.
 */
final class Pmi1Conversation {
    /** The commands whose replies Hydra always gives an {@code rc}. */
    private static final Set<String> RC_REPLIES = Set.of("response_to_init", "put_result", "get_result");

    private final PmiLineChannel channel;

    Pmi1Conversation(PmiLineChannel channel) {
        this.channel = channel;
    }

    /** @return the channel the conversation runs over */
    PmiLineChannel channel() {
        return channel;
    }

    /** Sends {@code request} and returns its reply, which must be {@code cmd=expected} and, with an rc, rc=0. */
    Pmi1Line call(String request, String expected, Deadline deadline) {
        return refuseUnlessRcZero(request, converse(request, expected, deadline));
    }

    /** Sends {@code request} and returns its well-formed {@code cmd=expected} reply, whatever its rc. */
    Pmi1Line converse(String request, String expected, Deadline deadline) {
        try {
            channel.writeLine(request, deadline.nanos());
        } catch (IOException e) {
            throw transportFailure(request, deadline, e);
        }
        return expect(receive(request, deadline), request, expected);
    }

    /** @return the next line, parsed; {@code request} is what it answers, for messages */
    Pmi1Line receive(String request, Deadline deadline) {
        String text;
        try {
            text = channel.readLine(deadline.nanos());
        } catch (IOException e) {
            throw transportFailure(request, deadline, e);
        }
        try {
            return Pmi1Line.parse(text);
        } catch (IllegalArgumentException e) {
            throw malformed(request, text, e.getMessage());
        }
    }

    /** @return {@code reply} if it is {@code cmd=expected} with a numeric rc where one belongs */
    Pmi1Line expect(Pmi1Line reply, String request, String expected) {
        if (!expected.equals(reply.cmd())) {
            throw malformed(request, reply.text(), "expected cmd=" + expected);
        }
        String rc = reply.get("rc");
        if (rc == null) {
            if (RC_REPLIES.contains(expected)) {
                throw malformed(request, reply.text(), "no rc");
            }
            return reply;
        }
        try {
            Integer.parseInt(rc);
        } catch (NumberFormatException e) {
            throw malformed(request, reply.text(), "rc is not a number");
        }
        return reply;
    }

    /** @return {@code reply} unless its rc says the process manager refused the request */
    Pmi1Line refuseUnlessRcZero(String request, Pmi1Line reply) {
        String rc = reply.get("rc");
        int code = rc == null ? 0 : Integer.parseInt(rc);
        if (code != 0) {
            String msg = reply.get("msg");
            throw new MpiException(ErrorClass.ERR_OTHER, "the process manager at " + channel.describe()
                    + " refused '" + request + "' (rc=" + code + (msg == null ? "" : ", msg=" + msg) + "): '"
                    + reply.text() + "'");
        }
        return reply;
    }

    /** @return the reply's {@code key} as an integer of at least {@code min} */
    int replyInt(String request, Pmi1Line reply, String key, int min) {
        String text = reply.get(key);
        if (text == null) {
            throw malformed(request, reply.text(), "no " + key);
        }
        try {
            int value = Integer.parseInt(text);
            if (value >= min) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw malformed(request, reply.text(), key + "=" + text + " is not a number >= " + min);
    }

    /** @return the error for a reply to {@code request} that makes no sense, saying {@code why} */
    MpiException malformed(String request, String reply, String why) {
        return new MpiException(ErrorClass.ERR_OTHER, "malformed PMI-1 reply to '" + request + "' from "
                + channel.describe() + ": '" + Pmi1Words.quote(reply) + "' (" + why + ")");
    }

    private MpiException transportFailure(String request, Deadline deadline, IOException e) {
        if (e instanceof SocketTimeoutException) {
            return new MpiException(ErrorClass.ERR_OTHER, "no reply to '" + request + "' from the process manager"
                    + " over " + channel.describe() + " within " + deadline.budget()
                    + " (a rank that never arrived, or a stuck process manager)", e);
        }
        if (e instanceof EOFException) {
            return new MpiException(ErrorClass.ERR_OTHER, "the process manager closed " + channel.describe()
                    + " before answering '" + request + "'", e);
        }
        return new MpiException(ErrorClass.ERR_OTHER, "PMI-1 '" + request + "' over " + channel.describe()
                + " failed: " + e.getMessage(), e);
    }
}
