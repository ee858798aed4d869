package org.jspin.transport.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.jspin.nic.fabric.Fabric;
import org.jspin.nic.fabric.Packet;
import org.jspin.nic.fabric.PacketHandler;

/**
 * The fabric of a job that spans hosts: rings ({@link ShmFabric}) to the ranks of this host, TCP (the
 * Netty fabric) to the others, as the C MPIs pair a shared-memory transport with a network one. Each
 * pair of ranks talks over exactly one of them, so each sender's order to each receiver holds.
 *
 * <p>Both are driven by the rank's own calls. A caller with nothing to do sleeps in the TCP fabric's
 * epoll, and a watcher thread sleeps on the ring's futex for it meanwhile, waking it when a packet
 * reaches the ring: the ring's writers in other processes can only move a futex word. The watcher
 * wakes each wait at most once and sleeps otherwise.
 *
 * <p>Settings the engine takes per job (eager limit, chunk size, whether arrivals may be held) are
 * the shared memory's: the stricter one where the two differ, and the one of the traffic a halo
 * program has most of, within its host, elsewhere.
 */
final class HybridFabric implements Fabric {
    /** How long the watcher sleeps at most between looks at whether the fabric closes. */
    private static final long WATCH_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final ShmFabric shm;
    private final Fabric tcp;
    private final int rank;
    private final Thread watcher;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment watchTime = arena.allocate(16, 8);
    /** The wait the watcher watches for: 0 when the caller does not wait. */
    private volatile long waiting;
    private long waits;
    private volatile boolean closing;

    /**
     * @param shm to this host's ranks (and to this rank itself)
     * @param tcp to the other hosts' ranks
     */
    HybridFabric(ShmFabric shm, Fabric tcp) {
        this.shm = shm;
        this.tcp = tcp;
        this.rank = shm.rank();
        watchTime.set(ValueLayout.JAVA_LONG, 0, WATCH_NANOS / 1_000_000_000L);
        watchTime.set(ValueLayout.JAVA_LONG, 8, WATCH_NANOS % 1_000_000_000L);
        this.watcher = Thread.ofPlatform().daemon().name("jspin-ring-watch-" + rank).unstarted(this::watch);
        watcher.start();
    }

    private Fabric to(int peer) {
        return shm.reaches(peer) ? shm : tcp;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return shm.size();
    }

    @Override
    public int maxPayload() {
        return Math.min(shm.maxPayload(), tcp.maxPayload());
    }

    /** No: the ring's packets must be released as they are handled. */
    @Override
    public boolean mayHoldArrivals() {
        return false;
    }

    @Override
    public int preferredChunkSize() {
        return Math.min(maxPayload(), shm.preferredChunkSize());
    }

    @Override
    public int preferredEagerLimit() {
        return shm.preferredEagerLimit();
    }

    @Override
    public boolean send(Packet packet) {
        return to(packet.target).send(packet);
    }

    @Override
    public boolean claim(Packet packet, int length) {
        return to(packet.target).claim(packet, length);
    }

    @Override
    public void abandon(Packet packet) {
        to(packet.target).abandon(packet);
    }

    @Override
    public void flush() {
        tcp.flush();
    }

    @Override
    public int poll(PacketHandler handler, int limit) {
        int n = shm.poll(handler, limit);
        if (n < limit) {
            n += tcp.poll(handler, limit - n);
        }
        return n;
    }

    @Override
    public void release(Packet packet) {
        to(packet.source).release(packet);
    }

    @Override
    public boolean hasPending() {
        return shm.hasPending() || tcp.hasPending();
    }

    @Override
    public void onActivity(Runnable wakeup) {
        tcp.onActivity(wakeup);
    }

    @Override
    public boolean pollDriven() {
        return true;
    }

    @Override
    public boolean progressInCalls() {
        return true;
    }

    @Override
    public int ranksOnHost() {
        return shm.ranksOnHost();
    }

    /** Sleeps in the TCP fabric's epoll while the watcher sleeps on the ring. */
    @Override
    public void await(long nanos) {
        long wait = shm.untilLivenessCheck(nanos);
        if (wait == 0 || shm.hasPending()) {
            return;
        }
        waiting = ++waits;
        LockSupport.unpark(watcher);
        try {
            tcp.await(wait);
        } finally {
            waiting = 0;
        }
    }

    @Override
    public void wakeup() {
        tcp.wakeup();
    }

    /** The watcher: for each wait of the caller, sleeps on the ring until something reaches it, then ends the wait. */
    private void watch() {
        long woke = 0;
        while (!closing) {
            long w = waiting;
            if (w == 0 || w == woke) {
                LockSupport.park(this);
                continue;
            }
            if (shm.watch(watchTime) && waiting == w) {
                woke = w;
                tcp.wakeup();
            }
        }
    }

    @Override
    public void close() {
        closing = true;
        LockSupport.unpark(watcher);
        shm.wakeup(); // ends the watcher's sleep on the ring
        try {
            watcher.join(TimeUnit.SECONDS.toMillis(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            shm.close();
        } finally {
            tcp.close();
            if (!watcher.isAlive()) {
                arena.close();
            }
        }
    }
}
