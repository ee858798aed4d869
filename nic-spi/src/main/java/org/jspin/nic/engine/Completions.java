package org.jspin.nic.engine;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.Event;
import org.jspin.nic.MatchEntry;
import org.jspin.nic.Put;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the protocol tells an operation it has ended: its completion is called on the thread
 * running the core, and a callback that throws is logged, never let into the core's state machine.
 */
final class Completions {
    /** The core's logger: where its parts log is part of what the protocol prints. */
    private static final Logger LOG = LoggerFactory.getLogger(ProtocolCore.class);

    private Completions() {
    }

    /** Tells send {@code put} its event {@code e}; {@code rank} names this rank in the log. */
    static void tell(Put put, Event e, int rank) {
        try {
            put.completion().completed(e);
        } catch (RuntimeException ex) {
            LOG.error("rank {}: a completion callback failed", rank, ex);
        }
    }

    /** Tells receive {@code entry} its event {@code e}; {@code rank} names this rank in the log. */
    static void tell(MatchEntry entry, Event e, int rank) {
        try {
            entry.completion().completed(e);
        } catch (RuntimeException ex) {
            LOG.error("rank {}: a completion callback failed", rank, ex);
        }
    }

    /** @return {@code e} if it is an MpiException, else an ERR_INTERN one saying what failed {@code doing} */
    static MpiException asMpi(RuntimeException e, String doing) {
        if (e instanceof MpiException m) {
            return m;
        }
        return new MpiException(ErrorClass.ERR_INTERN, "failed " + doing + ": " + e);
    }
}
