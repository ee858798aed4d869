package org.jspin.nic;

import java.lang.foreign.MemorySegment;

/**
 * The contract between the MPI layer and a NIC, Portals-flavoured: receives are posted as match
 * entries, sends are puts, and completions come back as events. Every method may be called from
 * any thread; it hands the work to the NIC's progress thread and returns at once.
 */
public interface Nic extends AutoCloseable {
    /** @return this rank in the job */
    int rank();

    /** @return ranks in the job */
    int size();

    /** @return the backend's name ({@code host}, {@code sim}) */
    String backend();

    /** @return the protocol settings */
    NicConfig config();

    /** Posts a receive. */
    void post(MatchEntry entry);

    /** Starts a send. */
    void put(Put put);

    /** Cancels a posted receive if it has not matched yet (it then completes as cancelled). */
    void cancel(MatchEntry entry);

    /**
     * Looks for an unexpected message matching {@code match}/{@code ignore}.
     *
     * @param peer world rank of the one sender the probe accepts, or -1 for any
     * @param take whether to take it (matched probe) so that only {@link #receiveMatched} gets it
     * @param wait whether to wait for one (blocking probe) rather than report none
     */
    void probe(int peer, long match, long ignore, boolean take, boolean wait, ProbeListener listener);

    /** Receives a message a matched probe took into {@code entry} (whose bits are ignored). */
    void receiveMatched(MatchedMessage message, MatchEntry entry);

    /**
     * Drives the NIC from the calling thread for one round, if no other thread is driving it now
     * (a waiting caller makes progress itself instead of waiting for the progress thread to be
     * scheduled, which halves the thread hand-offs per message).
     *
     * @return whether the round did any work (false also when another thread is driving)
     */
    boolean progress();

    /**
     * A caller starts spinning on its requests, calling {@link #progress()}: until
     * {@link #endWait()}, arrivals need not wake the progress thread.
     */
    void beginWait();

    /** The caller stops spinning (it parks, or its request completed). */
    void endWait();

    /**
     * The caller that waited (between {@link #beginWait} and {@link #endWait}) found nothing to do
     * for a while and now parks: the progress thread must take over at once rather than after its
     * usual grace, since nobody else polls the fabric.
     */
    default void parking() {
    }

    /**
     * The waiting caller (between {@link #beginWait} and {@link #endWait}) found nothing to do and
     * gives its CPU back: blocks until something arrives for this rank, work is handed to the NIC,
     * or {@code nanos} pass (or at once, if another thread is driving the NIC). The caller then
     * drives the NIC again with {@link #progress()}.
     */
    default void block(long nanos) {
        java.util.concurrent.locks.LockSupport.parkNanos(this, nanos);
    }

    /**
     * @return how long a waiting caller spins, driving the NIC, before it {@link #block}s: short
     *         where every rank has a CPU of its own, zero where ranks outnumber the CPUs (a spinning
     *         rank would take the CPU a peer needs to send what it waits for)
     */
    default long spinNanos() {
        return 0;
    }

    /** @return whether the progress thread can reach {@code segment} (a thread-confined one it cannot) */
    boolean accessible(MemorySegment segment);

    /** @return what this NIC has counted so far, one line per meter, for an end-of-run summary */
    String summary();

    /** Stops the NIC after the sends it has accepted have left; later calls fail. */
    @Override
    void close();
}
