package org.jspin.nic.engine;

import java.util.ArrayDeque;
import java.util.Iterator;

import org.jspin.nic.fabric.Fabric;
import org.jspin.nic.fabric.Packet;

/**
 * The packets this rank hands the fabric: each belongs to its send ({@link Packet#owner}; a CTS or
 * CREDIT packet to nobody) until the fabric releases it back to the pool. Packets the fabric
 * refuses (its link is full) wait in a backlog and go again, in order, before anything else.
 *
 * @param <S> the data path's state per send
 */
final class Outbox<S> {
    private final Fabric fabric;
    private final PacketPool pool;
    private final DataPath<S, ?> path;
    /** Packets the fabric refused, resent in order before anything else. */
    private final ArrayDeque<Packet> backlog = new ArrayDeque<>();
    /** Told of a packet the fabric threw on; set once, when the core is wired. */
    private Sender<S> sender;

    /**
     * @param fabric where packets go
     * @param pool   where released packets go back
     * @param path   told of every released packet of a send (its staging)
     */
    Outbox(Fabric fabric, PacketPool pool, DataPath<S, ?> path) {
        this.fabric = fabric;
        this.pool = pool;
        this.path = path;
    }

    /** Makes {@code sender} the one told when a packet can never go (its send fails, the packet counts as released). */
    void lossesTo(Sender<S> sender) {
        this.sender = sender;
    }

    /** Sends {@code p} for {@code op}: it counts among the send's packets out until the fabric releases it. */
    void send(SendOp<S> op, Packet p) {
        p.owner = op;
        op.packetsOut++;
        send(p);
    }

    /** Sends {@code p} now, or after the backlog if there is one or the link is full. */
    void send(Packet p) {
        if (!backlog.isEmpty() || !sendNow(p)) {
            backlog.add(p);
        }
    }

    /** Sends what waits in the backlog, in order, until the link is full again. @return packets sent */
    int resend() {
        int sent = 0;
        while (!backlog.isEmpty()) {
            // off the backlog before it goes: a fabric that throws fails its send, which drops that
            // send's packets from the backlog, and this one must be neither released twice nor
            // mistaken for the packet behind it
            Packet p = backlog.poll();
            if (!sendNow(p)) {
                backlog.addFirst(p);
                return sent;
            }
            sent++;
        }
        return sent;
    }

    /** @return whether no packet waits for the link */
    boolean isEmpty() {
        return backlog.isEmpty();
    }

    /** @return false if the link is full (the packet stays the caller's) */
    private boolean sendNow(Packet p) {
        try {
            return fabric.send(p);
        } catch (RuntimeException e) {
            // the peer is gone (or the fabric could not take the packet): the packet will never come
            // back, so release it here, and fail only the send it belonged to, never the core
            // fail the send before its packet counts as released: released last, an eager send (or
            // a last DATA chunk) would complete as a success first
            SendOp<S> op = ownerOf(p);
            if (op != null) {
                sender.fail(op, Completions.asMpi(e, "sending to rank " + op.put.target()));
            }
            sender.onReleased(p);
            return true;
        }
    }

    /** Gives a packet back to the pool (and its staging to the data path). @return its send, or null */
    SendOp<S> release(Packet p) {
        SendOp<S> op = ownerOf(p);
        if (op != null) {
            path.released(p);
            op.packetsOut--;
        }
        pool.free(p);
        return op;
    }

    /** Takes a failed send's packets out of the backlog, unsent: its receiver must not get part of a message its sender reports failed. */
    void drop(SendOp<S> op) {
        if (op.packetsOut > 0 && !backlog.isEmpty()) {
            drop(op, -1);
        }
    }

    /** Takes the packets for departed rank {@code peer} out of the backlog, unsent: its full ring would hold those behind them too. */
    void dropTo(int peer) {
        drop(null, peer);
    }

    /** Back to the pool, unsent: {@code owner}'s packets, or if it is null those for {@code peer}. */
    private void drop(SendOp<S> owner, int peer) {
        for (Iterator<Packet> it = backlog.iterator(); it.hasNext(); ) {
            Packet p = it.next();
            if (owner != null ? p.owner == owner : p.target == peer) {
                it.remove();
                release(p);
            }
        }
    }

    /** @return the send a packet of this rank's belongs to, or null (a CTS, a CREDIT) */
    @SuppressWarnings("unchecked") // only this core's sends are packet owners
    static <S> SendOp<S> ownerOf(Packet p) {
        return p.owner instanceof SendOp<?> op ? (SendOp<S>) op : null;
    }
}
