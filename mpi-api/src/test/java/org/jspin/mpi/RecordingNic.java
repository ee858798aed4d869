package org.jspin.mpi;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import org.jspin.nic.MatchEntry;
import org.jspin.nic.MatchedMessage;
import org.jspin.nic.Nic;
import org.jspin.nic.NicConfig;
import org.jspin.nic.ProbeListener;
import org.jspin.nic.Put;

/** A NIC that only records what it is handed, so that a test can look at it and complete it by hand. */
final class RecordingNic implements Nic {
    /** A probe as it reached the NIC. */
    record Probe(int peer, long match, long ignore, boolean take, boolean blocking, ProbeListener listener) {
    }

    /** A message a matched probe took, as the NIC would describe it. */
    record Taken(long matchBits, long messageBytes) implements MatchedMessage {
    }

    /** A receive of a matched message as it reached the NIC. */
    record Matched(MatchedMessage message, MatchEntry entry) {
    }

    final List<Put> puts = new ArrayList<>();
    final List<MatchEntry> posts = new ArrayList<>();
    final List<MatchEntry> cancels = new ArrayList<>();
    final List<Probe> probes = new ArrayList<>();
    final List<Matched> matched = new ArrayList<>();
    /** What {@link #accessible} answers. */
    boolean reachable = true;

    @Override
    public int rank() {
        return 0;
    }

    @Override
    public int size() {
        return 1;
    }

    @Override
    public String backend() {
        return "recording";
    }

    @Override
    public NicConfig config() {
        throw new UnsupportedOperationException("no protocol behind a recording NIC");
    }

    @Override
    public void post(MatchEntry entry) {
        posts.add(entry);
    }

    @Override
    public void put(Put put) {
        puts.add(put);
    }

    @Override
    public void cancel(MatchEntry entry) {
        cancels.add(entry);
    }

    @Override
    public void probe(int peer, long match, long ignore, boolean take, boolean blocking, ProbeListener listener) {
        probes.add(new Probe(peer, match, ignore, take, blocking, listener));
    }

    @Override
    public void receiveMatched(MatchedMessage message, MatchEntry entry) {
        matched.add(new Matched(message, entry));
    }

    @Override
    public boolean progress() {
        return false;
    }

    @Override
    public void beginWait() {
    }

    @Override
    public void endWait() {
    }

    @Override
    public boolean accessible(MemorySegment segment) {
        return reachable;
    }

    @Override
    public String summary() {
        return "";
    }

    @Override
    public void close() {
    }
}
