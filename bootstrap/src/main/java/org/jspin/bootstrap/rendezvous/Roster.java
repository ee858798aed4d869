package org.jspin.bootstrap.rendezvous;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Which ranks of a rendezvous have said hello, and how the exchange stands: open, complete (every
 * rank's endpoint, in rank order) or failed (why). It leaves {@code OPEN} once; a rank may give its
 * slot back only while it is open.
 */
final class Roster {
    private enum State { OPEN, COMPLETE, FAILED }

    /**
     * What {@link #admit} made of a registration.
     *
     * @param refusal  why it was refused, or null if it was admitted
     * @param everyone every registration, in rank order, when this one completed the exchange; else null
     */
    record Admission(String refusal, List<Registration> everyone) {
    }

    private final Registration[] slots;
    private int arrived;
    private State state = State.OPEN;
    private String failure;
    private List<String> endpoints;

    /** @param size how many ranks take part */
    Roster(int size) {
        this.slots = new Registration[size];
    }

    /**
     * Takes {@code reg}'s slot unless the exchange is over or the slot is taken, and tells the rank
     * so ({@code ACCEPTED}) before any other rank can complete the exchange: ACCEPTED always precedes
     * the list on a connection.
     *
     * @throws IOException when the rank cannot be told (its slot is then left free)
     */
    synchronized Admission admit(Registration reg) throws IOException {
        if (state == State.COMPLETE) {
            return new Admission("rank " + reg.rank() + " arrived after the exchange completed", null);
        }
        if (state == State.FAILED) {
            return new Admission("rank " + reg.rank() + " arrived after the exchange failed: " + failure, null);
        }
        Registration there = slots[reg.rank()];
        if (there != null) {
            return new Admission("rank " + reg.rank() + " is already registered (from " + there.socket().getRemoteSocketAddress()
                    + " with endpoint '" + Wire.printable(there.endpoint(), 64) + "')", null);
        }
        Wire.writeLine(reg.socket().getOutputStream(), Wire.VERSION, Wire.ACCEPTED);
        slots[reg.rank()] = reg;
        arrived++;
        if (arrived < slots.length) {
            return new Admission(null, null);
        }
        state = State.COMPLETE;
        List<Registration> all = List.of(slots);
        List<String> list = new ArrayList<>(slots.length);
        for (Registration r : all) {
            list.add(r.endpoint());
        }
        endpoints = List.copyOf(list);
        return new Admission(null, all);
    }

    /** @return whether {@code reg}'s slot was freed: false once the exchange is over or the slot is another's */
    synchronized boolean release(Registration reg) {
        if (state != State.OPEN || slots[reg.rank()] != reg) {
            return false;
        }
        slots[reg.rank()] = null;
        arrived--;
        return true;
    }

    /** @return the registered ranks, who must now be told {@code reason}; null if the exchange was no longer open */
    synchronized List<Registration> fail(String reason) {
        if (state != State.OPEN) {
            return null;
        }
        state = State.FAILED;
        failure = reason;
        List<Registration> waiting = new ArrayList<>();
        for (Registration r : slots) {
            if (r != null) {
                waiting.add(r);
            }
        }
        return waiting;
    }

    /** @return whether {@code reg} is registered in a finished exchange: whoever sends it the outcome closes its socket */
    synchronized boolean handedOver(Registration reg) {
        return state != State.OPEN && slots[reg.rank()] == reg;
    }

    /** @return the ranks that have not (or no longer) said hello, in order; empty once the exchange completed */
    synchronized List<Integer> missing() {
        List<Integer> missing = new ArrayList<>();
        if (state == State.COMPLETE) {
            return missing;
        }
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] == null) {
                missing.add(i);
            }
        }
        return missing;
    }

    /** @return every endpoint in rank order once the exchange completed, else null */
    synchronized List<String> endpoints() {
        return endpoints;
    }

    /** @return why the exchange failed, or null if it has not */
    synchronized String failure() {
        return failure;
    }

    @Override
    public synchronized String toString() {
        return arrived + "/" + slots.length + ", " + state;
    }
}
