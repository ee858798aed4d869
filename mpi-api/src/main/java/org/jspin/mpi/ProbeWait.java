package org.jspin.mpi;

import org.jspin.nic.Event;
import org.jspin.nic.MatchedMessage;
import org.jspin.nic.Nic;
import org.jspin.nic.ProbeListener;
import org.jspin.nic.match.MatchBits;

/** Waits for a probe's answer from the progress thread. */
final class ProbeWait implements ProbeListener {
    private static final Status NONE = new Status(Comm.ANY_SOURCE, Comm.ANY_TAG, 0, null, false);
    private final Request done;
    private volatile MatchedMessage matched;

    ProbeWait(Nic nic) {
        this.done = new Request(nic, null, null);
    }

    @Override
    public void probed(Event found, MatchedMessage message) {
        matched = message;
        if (found == null) {
            done.complete(NONE);
        } else {
            done.complete(new Status(MatchBits.source(found.matchBits()), MatchBits.tag(found.matchBits()),
                    found.messageBytes(), found.error(), false));
        }
    }

    /** @return the probed message's status, or null if a non-blocking probe found none */
    Status await() {
        Status s = done.waitFor();
        return s == NONE ? null : s;
    }

    /** @return the message a matched probe took, once {@link #await} returned; else null */
    MatchedMessage matched() {
        return matched;
    }
}
