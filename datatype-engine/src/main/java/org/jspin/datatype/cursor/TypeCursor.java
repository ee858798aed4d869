package org.jspin.datatype.cursor;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.kernel.Runs;
import org.jspin.datatype.lower.BlockNode;
import org.jspin.datatype.lower.Node;
import org.jspin.datatype.lower.RunsNode;
import org.jspin.datatype.lower.VectorNode;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * Packs or unpacks any byte range of a message of {@code count} elements between a typed buffer and
 * a contiguous one. Resumable (each call continues where the last stopped), repositionable with
 * {@link #seek}, and checkpointable ({@link #checkpoint()}, {@link #restore}) in O(depth) state.
 *
 * <p>The whole type map was checked against the typed buffer when the cursor was made, so a
 * transfer never faults half-way; each call checks its contiguous range before writing a byte. A
 * cursor is not thread-safe; make one per transfer.
 */
public final class TypeCursor extends Walker {
    /** Largest batch handed to one kernel call (kernels count units in an int). */
    private static final long MAX_BATCH = 1 << 30;
    /**
     * Packed bytes one kernel call moves at most (at least one unit). A kernel is a loop over units,
     * and until the JIT has installed its C2 version, a call starts in a lower tier and reaches C2's
     * code only at a loop back edge (on-stack replacement), after some hundreds of units; a 4 MiB pack
     * as one call sometimes never left the interpreter and C1 (docs/PERFORMANCE.md). Calls of at most
     * 64 KiB make the kernel's entry hot sooner and bound what one call runs outside C2.
     */
    static final long BATCH_BYTES = 64 << 10;

    private final MemorySegment typed;
    private final long origin;

    /**
     * Made by {@code CompiledType.cursor}, which builds the message tree and its kernels.
     *
     * @param owner   the compiled type (checkpoints are exchangeable between cursors of one owner and count)
     * @param message the message tree of {@code count} elements, kernels assigned (null if empty)
     * @throws MpiException ERR_BUFFER if the type map of {@code count} elements reaches outside
     *                      {@code typed} around {@code origin}
     */
    public TypeCursor(Object owner, Node message, long count, MemorySegment typed, long origin) {
        super(owner, count, message);
        if (typed == null) {
            throw new MpiException(ErrorClass.ERR_BUFFER, "buffer must not be null");
        }
        this.typed = typed;
        this.origin = origin;
        if (message != null) {
            long lo;
            long hi;
            try {
                lo = Math.addExact(origin, message.minOffset());
                hi = Math.addExact(origin, message.maxOffset());
            } catch (ArithmeticException e) {
                throw new MpiException(ErrorClass.ERR_BUFFER, "the type map of " + count + " elements around origin "
                        + origin + " lies beyond the 64-bit address range");
            }
            if (lo < 0 || hi > typed.byteSize()) {
                throw new MpiException(ErrorClass.ERR_BUFFER, "the type map of " + count + " elements spans bytes ["
                        + lo + ", " + hi + ") of the buffer, which has " + typed.byteSize() + " bytes (origin "
                        + origin + ")");
            }
        }
    }

    /** @return the byte of the typed buffer that is the datatype's origin (displacement 0) */
    public long origin() {
        return origin;
    }

    /**
     * Packs up to {@code maxBytes} from the current position into {@code dst} at {@code dstOffset}.
     *
     * @return bytes packed (less than {@code maxBytes} only at the end of the message)
     */
    public long pack(MemorySegment dst, long dstOffset, long maxBytes) {
        long n = checkRange(dst, dstOffset, maxBytes);
        if (dst.isReadOnly()) {
            throw new MpiException(ErrorClass.ERR_BUFFER, "pack destination is read-only");
        }
        checkUsable(typed, "typed buffer");
        transfer(dst, dstOffset, n, true);
        return n;
    }

    /**
     * Unpacks up to {@code maxBytes} from {@code src} at {@code srcOffset} into the typed buffer.
     *
     * @return bytes unpacked (less than {@code maxBytes} only at the end of the message)
     */
    public long unpack(MemorySegment src, long srcOffset, long maxBytes) {
        long n = checkRange(src, srcOffset, maxBytes);
        if (typed.isReadOnly()) {
            throw new MpiException(ErrorClass.ERR_BUFFER, "unpack target buffer is read-only");
        }
        checkUsable(typed, "typed buffer");
        transfer(src, srcOffset, n, false);
        return n;
    }

    /**
     * Moves forward {@code bytes} without copying (the catch-up walk of a handler).
     *
     * @return bytes skipped
     */
    public long skip(long bytes) {
        if (bytes < 0) {
            throw new MpiException(ErrorClass.ERR_ARG, "cannot skip a negative byte count " + bytes);
        }
        long n = Math.min(bytes, remaining());
        seek(pos + n);
        return n;
    }

    /** A segment of a closed arena, or confined to another thread, fails here and not inside a kernel. */
    private static void checkUsable(MemorySegment seg, String what) {
        if (!seg.scope().isAlive()) {
            throw new MpiException(ErrorClass.ERR_BUFFER, what + " belongs to a closed arena");
        }
        if (!seg.isAccessibleBy(Thread.currentThread())) {
            throw new MpiException(ErrorClass.ERR_BUFFER,
                    what + " is confined to another thread than " + Thread.currentThread().getName());
        }
    }

    private long checkRange(MemorySegment seg, long off, long maxBytes) {
        if (seg == null) {
            throw new MpiException(ErrorClass.ERR_BUFFER, "contiguous buffer must not be null");
        }
        if (maxBytes < 0) {
            throw new MpiException(ErrorClass.ERR_COUNT, "byte count must be non-negative, got " + maxBytes);
        }
        checkUsable(seg, "contiguous buffer");
        long n = Math.min(maxBytes, remaining());
        if (off < 0 || off > seg.byteSize() - n) {
            throw new MpiException(ErrorClass.ERR_BUFFER, "contiguous range [" + off + ", " + (off + n)
                    + ") lies outside the buffer of " + seg.byteSize() + " bytes");
        }
        return n;
    }

    private void transfer(MemorySegment packed, long poff, long n, boolean pack) {
        final MemorySegment t = typed;
        final long end = pos + n;
        while (pos < end) {
            if (blockDone != 0) {
                poff = partial(packed, poff, end, pack);
                continue;
            }
            int top = this.top;
            Node lp = nodes[top];
            long avail = end - pos;
            if (lp.kind == Node.VECTOR) {
                VectorNode v = (VectorNode) lp;
                long len = v.child.size;
                if (avail < len) {
                    poff = partial(packed, poff, end, pack);
                    continue;
                }
                long i = idx[top];
                if (!pack && i == 0 && top > 0 && nodes[top - 1] instanceof VectorNode pv && pv.transposed() != null
                        && idx[top - 1] == 0 && avail >= pv.size && pv.count <= MAX_BATCH) {
                    poff = transposed(pv, v, packed, poff);
                    continue;
                }
                long k = Math.min(Math.min(v.count - i, avail / len), Math.max(1, BATCH_BYTES / len));
                long at = origin + base[top] + v.offset + ((BlockNode) v.child).offset + i * v.stride;
                if (pack) {
                    v.kernel().gather(t, at, packed, poff, (int) k);
                } else {
                    v.kernel().scatter(packed, poff, t, at, (int) k);
                }
                long bytes = k * len;
                poff += bytes;
                pos += bytes;
                if (i + k == v.count) {
                    nextLeafParent();
                } else {
                    idx[top] = i + k;
                }
                continue;
            }
            RunsNode r = (RunsNode) lp;
            int e = (int) idx[top];
            if (e == 0 && top > 0 && nodes[top - 1] instanceof VectorNode pv && pv.kernel() != null
                    && avail >= r.size) {
                poff = elements(pv, r, packed, poff, avail, pack);
                continue;
            }
            if (avail < r.lens[e]) {
                poff = partial(packed, poff, end, pack);
                continue;
            }
            if (r.listed() != null) {
                poff = listedRuns(r, e, packed, poff, avail, pack);
                continue;
            }
            long limit = r.prefix[e] + avail;
            int e1 = limit >= r.size ? r.lens.length : r.runAt(limit);
            long at = origin + base[top];
            if (pack) {
                Runs.gather(t, at, r.disps, r.lens, e, e1, packed, poff);
            } else {
                Runs.scatter(packed, poff, t, at, r.disps, r.lens, e, e1);
            }
            long bytes = (e1 == r.lens.length ? r.size : r.prefix[e1]) - r.prefix[e];
            poff += bytes;
            pos += bytes;
            if (e1 == r.lens.length) {
                nextLeafParent();
            } else {
                idx[top] = e1;
            }
        }
    }

    /**
     * Unpacks one whole instance of the two-level vector {@code pv} (outer) of {@code v} (inner, at the
     * top) in transposed order: for each inner index, the outer vector's blocks, which lie next to each
     * other in typed memory, so the stores run in address order.
     */
    private long transposed(VectorNode pv, VectorNode v, MemorySegment packed, long poff) {
        long len = v.child.size;
        long at = origin + base[top] + v.offset + ((BlockNode) v.child).offset;
        int outer = (int) pv.count;
        for (long j = 0; j < v.count; j++) {
            pv.transposed().scatter(packed, poff + j * len, typed, at + j * v.stride, outer);
        }
        pos += pv.size;
        top--; // the outer instance is done: move on from its parent
        nextLeafParent();
        return poff + pv.size;
    }

    /** Copies whole runs of a uniform-length runs node with its listed kernel, from run {@code e}. */
    private long listedRuns(RunsNode r, int e, MemorySegment packed, long poff, long avail, boolean pack) {
        int k = (int) Math.min(r.lens.length - e, avail / r.uniformLen);
        long at = origin + base[top];
        if (pack) {
            r.listed().gather(typed, at, r.disps, e, packed, poff, k);
        } else {
            r.listed().scatter(packed, poff, typed, at, r.disps, e, k);
        }
        long bytes = k * r.uniformLen;
        pos += bytes;
        if (e + k == r.lens.length) {
            nextLeafParent();
        } else {
            idx[top] = e + k;
        }
        return poff + bytes;
    }

    /**
     * Copies whole struct-like elements (the runs node at the top, repeated by the vector above it)
     * with the vector's pattern kernel, starting at the current element.
     */
    private long elements(VectorNode pv, RunsNode r, MemorySegment packed, long poff, long avail, boolean pack) {
        int p = top - 1;
        long i = idx[p];
        long k = Math.min(Math.min(pv.count - i, avail / r.size), Math.max(1, BATCH_BYTES / r.size));
        long at = origin + base[p] + pv.offset + i * pv.stride;
        if (pack) {
            pv.kernel().gather(typed, at, packed, poff, (int) k);
        } else {
            pv.kernel().scatter(packed, poff, typed, at, (int) k);
        }
        long bytes = k * r.size;
        pos += bytes;
        i += k;
        if (i == pv.count) {
            top = p; // the vector of elements is finished: move on from its parent
            nextLeafParent();
        } else {
            idx[p] = i;
            base[top] = base[p] + pv.offset + i * pv.stride;
            idx[top] = 0;
        }
        return poff + bytes;
    }

    /** Transfers part of the current block (a range that starts or ends inside it). */
    private long partial(MemorySegment packed, long poff, long end, boolean pack) {
        long len = currentBlockLength();
        long piece = Math.min(len - blockDone, end - pos);
        long at = origin + currentBlockOffset() + blockDone;
        if (pack) {
            MemorySegment.copy(typed, at, packed, poff, piece);
        } else {
            MemorySegment.copy(packed, poff, typed, at, piece);
        }
        pos += piece;
        blockDone += piece;
        if (blockDone == len) {
            stepBlock();
        }
        return poff + piece;
    }
}
