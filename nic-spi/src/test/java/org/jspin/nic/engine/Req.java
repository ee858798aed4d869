package org.jspin.nic.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.jspin.error.ErrorClass;
import org.jspin.nic.Completion;
import org.jspin.nic.Event;
import org.jspin.nic.MatchEntry;
import org.jspin.nic.MatchedMessage;
import org.jspin.nic.ProbeListener;

/** One operation of a test: its engine state, and every completion or probe result it was told. */
final class Req implements Completion, ProbeListener {
    SendOp<String> send;
    RecvOp<String> recv;
    MatchEntry entry;
    final List<Event> events = new ArrayList<>();
    final List<MatchedMessage> matched = new ArrayList<>();

    @Override
    public void completed(Event e) {
        events.add(e);
    }

    @Override
    public void probed(Event found, MatchedMessage message) {
        events.add(found);
        matched.add(message);
    }

    boolean done() {
        return !events.isEmpty();
    }

    /** @return the one event this operation was told (fails if none or several) */
    Event event() {
        assertEquals(1, events.size(), "events: " + events);
        return events.get(0);
    }

    /** @return the one event's error class, or null if it succeeded */
    ErrorClass error() {
        Event e = event();
        return e.error() == null ? null : e.error().errorClass();
    }
}
