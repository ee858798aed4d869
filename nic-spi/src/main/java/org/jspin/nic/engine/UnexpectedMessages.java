package org.jspin.nic.engine;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

import org.jspin.nic.fabric.Fabric;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketKind;
import org.jspin.nic.match.Matcher;

/**
 * Messages nobody has asked for yet (eager messages, RTSs), on the matcher's unexpected list: their
 * payloads copied aside, or left in their packets, which are held until a receive takes them. An
 * RTS's bytes in a packet that is its sender's own are held only briefly, until the next round.
 * Waiting probes hear of each arrival.
 */
final class UnexpectedMessages {
    private final Fabric fabric;
    private final Matcher<?, Unexpected> matcher;
    private final WaitingProbes probes;
    private final EagerCredit credit;
    /** Whether unexpected eager payloads stay in their packets ({@link Fabric#mayHoldArrivals}). */
    private final boolean holdArrivals;
    /** Unexpected messages whose packets are held, released when taken or when the core is disposed. */
    private final Set<Unexpected> held = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Unexpected RTSs whose bytes are held in their senders' own packets until the next round ({@link #dropHeldBriefly}). */
    private final ArrayDeque<Unexpected> heldBriefly = new ArrayDeque<>();
    private final Tally bytesCopied;

    /**
     * @param fabric  where packets go back
     * @param matcher whose unexpected list the messages join
     * @param probes  the probes waiting for a message
     * @param credit  given back for an RTS's bytes dropped
     * @param meters  where {@code jspin.unexpected.bytes.copied} is counted
     */
    UnexpectedMessages(Fabric fabric, Matcher<?, Unexpected> matcher, WaitingProbes probes, EagerCredit credit,
                       Meters meters) {
        this.fabric = fabric;
        this.matcher = matcher;
        this.probes = probes;
        this.credit = credit;
        this.holdArrivals = fabric.mayHoldArrivals();
        this.bytesCopied = meters.counter("jspin.unexpected.bytes.copied", "bytes");
    }

    /** An eager message or RTS in {@code p} nobody has asked for yet: it joins the unexpected list and the store takes over {@code p}. */
    void arrived(PacketKind kind, Packet p) {
        Unexpected u = keep(kind, p);
        matcher.addUnexpected(u.bits, u);
        if (!probes.isEmpty()) {
            probes.arrived(u, matcher);
        }
    }

    /**
     * The message with the payload it carries; takes over the packet (held, or released once its
     * payload is copied out). An RTS's payload in a packet that is the sender's own (the in-JVM
     * fabric, or a send to self) is not copied: the packet is held until the next round, whose
     * commands come first, in case the receive is being posted (the caller of a rank whose send
     * completed in this round, say); then it goes back with those bytes dropped. The sender keeps
     * them until the CTS, whose offset 0 asks for them again, and their eager credit goes back with
     * the packet. So the sender's packets are never held for long.
     */
    private Unexpected keep(PacketKind kind, Packet p) {
        Unexpected u;
        boolean hold = p.payloadLength > 0 && holdArrivals && p.source != fabric.rank();
        if (kind == PacketKind.RTS && p.payloadLength > 0 && !hold) {
            u = new Unexpected(kind, p.source, p.matchBits, p.messageLength, p.sendId, p.signatureHash,
                    p.signatureElements, p.payload, p.payloadOffset, p.payloadLength, p);
            held.add(u);
            heldBriefly.add(u);
        } else if (hold) {
            // the payload stays in the packet until a receive takes it: no allocation, no copy;
            // eager credit bounds how much of it a sender can leave here
            u = new Unexpected(kind, p.source, p.matchBits, p.messageLength, p.sendId, p.signatureHash,
                    p.signatureElements, p.payload, p.payloadOffset, p.payloadLength, p);
            held.add(u);
        } else {
            MemorySegment copy = null;
            if (p.payloadLength > 0) {
                copy = MemorySegment.ofArray(new byte[p.payloadLength]);
                MemorySegment.copy(p.payload, p.payloadOffset, copy, 0, p.payloadLength);
                bytesCopied.add(p.payloadLength);
            }
            u = new Unexpected(kind, p.source, p.matchBits, p.messageLength, p.sendId, p.signatureHash,
                    p.signatureElements, copy, 0, p.payloadLength, null);
            fabric.release(p);
        }
        return u;
    }

    /** @return whether some RTS's bytes are held until the next round */
    boolean holdsBriefly() {
        return !heldBriefly.isEmpty();
    }

    /**
     * Drops the bytes of the unexpected RTSs held since an earlier round, giving their packets back
     * and their credit; those a receive took meanwhile are only forgotten.
     *
     * @return packets given back
     */
    int dropHeldBriefly() {
        int dropped = 0;
        Unexpected u;
        while ((u = heldBriefly.poll()) != null) {
            if (u.held != null) {
                credit.taken(u.source, u.dataBytes);
                u.dropData();
                release(u);
                dropped++;
            }
        }
        return dropped;
    }

    /** Gives a held unexpected message's packet back to the fabric (a receive has taken its payload). */
    void release(Unexpected u) {
        Packet p = u.held;
        if (p != null) {
            u.held = null;
            held.remove(u);
            fabric.release(p);
        }
    }

    /** Gives back the packets of messages nobody took, before the fabric closes. */
    void releaseAll() {
        for (Unexpected u : new ArrayList<>(held)) {
            release(u);
        }
    }
}
