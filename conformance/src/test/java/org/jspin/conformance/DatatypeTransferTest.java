package org.jspin.conformance;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.jspin.datatype.Datatype;
import org.jspin.datatype.cursor.TypeCursor;
import org.jspin.datatype.flat.RegionIterator;
import org.jspin.mpi.Comm;
import org.jspin.mpi.Status;
import org.jspin.nic.NicConfig;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every golden datatype and every application layout, sent with its type and received as bytes
 * (equal to the pack the datatype engine computes locally), and sent as bytes and received with
 * its type (equal to the local unpack, with every byte outside the type map untouched). Each
 * file's cases run in one job; a failure names the case.
 *
 * <p>The API's buffers start at the type's origin, so a type reaching below its origin (negative
 * lb or displacements) is sent as a one-block hindexed of {@code count} copies displaced by the
 * reach; its signature and type map are those of the case shifted, which is what is compared.
 */
class DatatypeTransferTest {
    private static final int PAD = 16;
    private static final int MAX_FAILURES = 20;

    static Stream<Arguments> files() {
        List<Named<NicConfig>> protocols = List.of(
                Named.of("default (golden types mostly eager)", NicConfig.DEFAULT),
                Named.of("small-chunks (mostly rendezvous, many chunks)", Targets.SMALL),
                Named.of("staged", Targets.STAGED));
        return Targets.all().stream().flatMap(t -> Stream.of("golden/handpicked.jsonl", "golden/random-public.jsonl",
                "layouts").flatMap(f -> protocols.stream().map(p -> Arguments.of(Named.of(t.toString(), t), f, p))));
    }

    /** Where a case's buffer starts relative to the type's origin, and how big it is. */
    record Frame(long origin, long bytes) {
        static Frame of(Datatype t, long count) {
            long lo = 0;
            long hi = 0;
            boolean any = false;
            RegionIterator it = t.regions(count);
            while (it.advance()) {
                long a = it.offset();
                long b = a + it.length();
                lo = any ? Math.min(lo, a) : a;
                hi = any ? Math.max(hi, b) : b;
                any = true;
            }
            long origin = lo < 0 ? PAD - lo : 0;
            return new Frame(origin, origin + Math.max(hi, 0) + PAD);
        }
    }

    /** A case as the API sends it: the type itself, or the shifted wrapper for count copies. */
    record Wire(Datatype type, long count) {
        static Wire of(Datatype t, long count, Frame f) {
            if (f.origin == 0) {
                return new Wire(t, count);
            }
            return new Wire(Datatype.hindexed(new long[] {count}, new long[] {f.origin}, t).commit(), 1);
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("files")
    void typedToBytesAndBack(Target target, String file, NicConfig nic) {
        List<SharedFiles.TypeCase> cases = file.equals("layouts") ? SharedFiles.layouts() : SharedFiles.golden(file);
        target.run(2, nic, mpi -> {
            Comm w = mpi.world();
            List<String> failures = new ArrayList<>();
            for (int k = 0; k < cases.size(); k++) {
                SharedFiles.TypeCase c = cases.get(k);
                try {
                    if (w.rank() == 0) {
                        send(w, c, k);
                    } else {
                        receive(w, c, k);
                    }
                } catch (Throwable e) {
                    failures.add(c.name() + " (count " + c.count() + "): " + e);
                    if (failures.size() >= MAX_FAILURES) {
                        break; // the peer then fails too, on a missing message or a peer gone
                    }
                }
            }
            if (!failures.isEmpty()) {
                throw new AssertionError(failures.size() + " of " + cases.size() + " cases of " + file + " failed on rank "
                        + w.rank() + ":\n  " + String.join("\n  ", failures));
            }
        });
    }

    private static long seedOf(int k) {
        return 0xC0FFEEL + 31L * k;
    }

    /** Rank 0: the typed message (tag 2k), then the packed bytes (tag 2k+1). */
    private static void send(Comm w, SharedFiles.TypeCase c, int k) {
        Frame f = Frame.of(c.type(), c.count());
        Wire wire = Wire.of(c.type(), c.count(), f);
        MemorySegment typed = MemorySegment.ofArray(new byte[Math.toIntExact(f.bytes)]);
        Bytes.fillFast(typed, seedOf(k));
        w.send(typed, wire.count, wire.type, 1, 2 * k);
        long size = c.type().packSize(c.count());
        w.send(Bytes.pattern(size, ~seedOf(k)), size, Datatype.BYTE, 1, 2 * k + 1);
    }

    /** Rank 1: checks both against the datatype engine's local pack and unpack. */
    private static void receive(Comm w, SharedFiles.TypeCase c, int k) {
        Datatype t = c.type();
        long size = t.packSize(c.count());
        Frame f = Frame.of(t, c.count());
        Wire wire = Wire.of(t, c.count(), f);

        // typed -> bytes: equal to the local pack of the sender's buffer
        MemorySegment typed = MemorySegment.ofArray(new byte[Math.toIntExact(f.bytes)]);
        Bytes.fillFast(typed, seedOf(k));
        MemorySegment expectedPack = Bytes.sentinels(size + PAD);
        TypeCursor pc = t.cursor(c.count(), typed, f.origin);
        pc.pack(expectedPack, 0, size);
        MemorySegment got = Bytes.sentinels(size + PAD);
        Status s = w.recv(got, size, Datatype.BYTE, 0, 2 * k);
        check(s.byteCount() == size, "typed message of " + size + " bytes arrived with " + s.byteCount());
        Bytes.assertSameBytes(expectedPack, got, "typed -> bytes");

        // bytes -> typed: equal to the local unpack; bytes outside the type map untouched
        MemorySegment packed = Bytes.pattern(size, ~seedOf(k));
        MemorySegment expected = Bytes.sentinels(f.bytes);
        t.cursor(c.count(), expected, f.origin).unpack(packed, 0, size);
        MemorySegment into = Bytes.sentinels(f.bytes);
        s = w.recv(into, wire.count, wire.type, 0, 2 * k + 1);
        check(s.byteCount() == size, "packed message of " + size + " bytes arrived with " + s.byteCount());
        Bytes.assertSameBytes(expected, into, "bytes -> typed");
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }
}
