package org.jspin.datatype.kernel;

import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_long;
import static java.lang.constant.ConstantDescs.CD_void;
import static java.lang.constant.ConstantDescs.INIT_NAME;
import static java.lang.constant.ConstantDescs.MTD_void;

import java.lang.classfile.ClassFile;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.AccessFlag;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Compiles a unit's moves into a {@link CopyKernel} class: a counted loop over units whose body is
 * straight-line loads and stores at constant offsets, with the unit stride and size as constants. The
 * JIT then sees constant scales (so it hoists the segment bounds checks and unrolls) and no calls but
 * the intrinsic segment and vector accesses, and for packing pieces of 1-4 KiB on AVX2 a
 * {@code memmove} ({@link NativeCopy}). One class per shape, defined as a hidden class.
 * Strided kernels ({@link CopyKernel}) find unit i at {@code at + stride * i}, listed kernels
 * ({@link ListKernel}) at {@code at + disps[e0 + i]}.
 *
 * <p>On AVX-512 a unit's 64-byte moves, {@link #MIN_GROUP} to {@link #GROUP} of them, load all their
 * vectors before they store them rather than load, store, load, store, and a loop of 16 to 23 such
 * moves (1 KiB blocks) is a loop of such groups ({@link #MAX_LOOP_GROUPS}): 256 B and 1 KiB blocks
 * moved faster so, 512 B level (docs/PERFORMANCE.md, "KernelCompiler").
 */
final class KernelCompiler {
    private static final ClassDesc CD_SEGMENT = ClassDesc.of("java.lang.foreign.MemorySegment");
    private static final ClassDesc CD_KERNEL = ClassDesc.of(CopyKernel.class.getName());
    private static final ClassDesc CD_BYTE_VECTOR = ClassDesc.of("jdk.incubator.vector.ByteVector");
    private static final ClassDesc CD_SPECIES = ClassDesc.of("jdk.incubator.vector.VectorSpecies");
    private static final ClassDesc CD_ORDER = ClassDesc.of("java.nio.ByteOrder");
    private static final ClassDesc CD_HOLDER = ClassDesc.of(VectorSpeciesHolder.class.getName());
    private static final ClassDesc CD_LAYOUTS = ClassDesc.of("java.lang.foreign.ValueLayout");
    private static final ClassDesc CD_NATIVE_COPY = ClassDesc.of(NativeCopy.class.getName());
    private static final ClassDesc CD_CLASS = ClassDesc.of("java.lang.Class");
    private static final MethodTypeDesc MTD_CAST = MethodTypeDesc.of(CD_Object, CD_Object);
    private static final MethodTypeDesc MTD_COPY = MethodTypeDesc.of(CD_void, CD_SEGMENT, CD_long, CD_SEGMENT,
            CD_long, CD_int);
    private static final MethodTypeDesc MTD_BULK = MethodTypeDesc.of(CD_void, CD_SEGMENT, CD_long, CD_SEGMENT,
            CD_long, CD_long);
    private static final MethodTypeDesc MTD_VLOAD = MethodTypeDesc.of(CD_BYTE_VECTOR, CD_SPECIES, CD_SEGMENT,
            CD_long, CD_ORDER);
    private static final MethodTypeDesc MTD_VSTORE = MethodTypeDesc.of(CD_void, CD_SEGMENT, CD_long, CD_ORDER);

    private static final ClassDesc CD_LIST_KERNEL = ClassDesc.of(ListKernel.class.getName());
    private static final ClassDesc CD_LONGS = CD_long.arrayType();
    private static final MethodTypeDesc MTD_LIST_GATHER = MethodTypeDesc.of(CD_void, CD_SEGMENT, CD_long,
            CD_LONGS, CD_int, CD_SEGMENT, CD_long, CD_int);
    private static final MethodTypeDesc MTD_LIST_SCATTER = MethodTypeDesc.of(CD_void, CD_SEGMENT, CD_long,
            CD_SEGMENT, CD_long, CD_LONGS, CD_int, CD_int);

    /**
     * Local-variable slots of one generated method. The parameters differ between the four methods;
     * the locals after them (unit index, the unit's typed and packed addresses, an inner loop index)
     * come after the last parameter.
     *
     * @param typedSeg  the typed segment
     * @param typedAt   its base offset (long)
     * @param packedSeg the packed segment
     * @param packedAt  its base offset (long)
     * @param disps     the displacement list (listed kernels), or -1 (strided kernels)
     * @param first     index of the first listed block (listed kernels), or -1
     * @param n         the unit count
     */
    private record Slots(int typedSeg, int typedAt, int packedSeg, int packedAt, int disps, int first, int n) {
        static final int UNIT = 10;
        static final int TYPED_UNIT = 11;
        static final int PACKED_UNIT = 13;
        static final int INNER = 15;
    }

    // gather(typed, at, packed, off, n) and scatter(packed, off, typed, at, n)
    private static final Slots STRIDED_GATHER = new Slots(1, 2, 4, 5, -1, -1, 7);
    private static final Slots STRIDED_SCATTER = new Slots(4, 5, 1, 2, -1, -1, 7);
    // gather(typed, at, disps, e0, packed, off, n) and scatter(packed, off, typed, at, disps, e0, n)
    private static final Slots LISTED_GATHER = new Slots(1, 2, 6, 7, 4, 5, 9);
    private static final Slots LISTED_SCATTER = new Slots(4, 5, 1, 2, 7, 8, 9);

    private KernelCompiler() {
    }

    /**
     * A {@link CopyKernel} for units {@code stride} typed bytes apart.
     *
     * @param stride typed bytes between units
     * @param size   packed bytes between units (the unit's packed size, or more for a transposed walk)
     * @param moves  the unit's moves, in type-map order
     */
    static CopyKernel strided(MethodHandles.Lookup lookup, long stride, long size, List<Move> moves)
            throws ReflectiveOperationException {
        return (CopyKernel) instantiate(lookup, stridedClass(stride, size, moves));
    }

    /** @return the class file of {@link #strided}'s kernel (tests read its code) */
    static byte[] stridedClass(long stride, long size, List<Move> moves) {
        return build(CD_KERNEL, MTD_COPY, MTD_COPY,
                code -> loop(code, STRIDED_GATHER, stride, size, moves, true),
                code -> loop(code, STRIDED_SCATTER, stride, size, moves, false));
    }

    /**
     * A {@link ListKernel} for units at listed displacements.
     *
     * @param size  packed bytes per unit
     * @param moves the unit's moves
     */
    static ListKernel listed(MethodHandles.Lookup lookup, long size, List<Move> moves)
            throws ReflectiveOperationException {
        byte[] bytes = build(CD_LIST_KERNEL, MTD_LIST_GATHER, MTD_LIST_SCATTER,
                code -> loop(code, LISTED_GATHER, 0, size, moves, true),
                code -> loop(code, LISTED_SCATTER, 0, size, moves, false));
        return (ListKernel) instantiate(lookup, bytes);
    }

    private static byte[] build(ClassDesc iface, MethodTypeDesc gatherType, MethodTypeDesc scatterType,
            Consumer<CodeBuilder> gatherBody, Consumer<CodeBuilder> scatterBody) {
        ClassDesc self = ClassDesc.of(KernelCompiler.class.getPackageName() + ".CompiledKernel");
        return ClassFile.of().build(self, cb -> {
            cb.withFlags(AccessFlag.FINAL, AccessFlag.SYNTHETIC);
            cb.withInterfaceSymbols(iface);
            cb.withMethodBody(INIT_NAME, MTD_void, ClassFile.ACC_PUBLIC,
                    code -> code.aload(0).invokespecial(CD_Object, INIT_NAME, MTD_void).return_());
            cb.withMethodBody("gather", gatherType, ClassFile.ACC_PUBLIC, gatherBody);
            cb.withMethodBody("scatter", scatterType, ClassFile.ACC_PUBLIC, scatterBody);
        });
    }

    private static Object instantiate(MethodHandles.Lookup lookup, byte[] bytes) throws ReflectiveOperationException {
        Class<?> c = lookup.defineHiddenClass(bytes, true).lookupClass();
        return c.getDeclaredConstructor().newInstance();
    }

    private static void loop(CodeBuilder code, Slots sl, long stride, long size, List<Move> moves, boolean pack) {
        Label cond = code.newLabel();
        Label end = code.newLabel();
        code.iconst_0().istore(Slots.UNIT);
        code.labelBinding(cond);
        code.iload(Slots.UNIT).iload(sl.n()).if_icmpge(end);
        if (sl.disps() < 0) { // typed unit = at + stride * i
            code.lload(sl.typedAt()).loadConstant(stride).iload(Slots.UNIT).i2l().lmul().ladd();
        } else { // typed unit = at + disps[e0 + i]
            code.lload(sl.typedAt()).aload(sl.disps()).iload(sl.first()).iload(Slots.UNIT).iadd().laload().ladd();
        }
        code.lstore(Slots.TYPED_UNIT);
        code.lload(sl.packedAt()).loadConstant(size).iload(Slots.UNIT).i2l().lmul().ladd().lstore(Slots.PACKED_UNIT);
        for (int i = 0; i < moves.size(); ) {
            int group = vectorGroup(moves, i);
            if (group >= MIN_GROUP) {
                loadsThenStores(code, sl, moves.subList(i, i + group), pack, -1, 0);
                i += group;
            } else {
                for (int last = i + Math.max(1, group); i < last; i++) {
                    move(code, sl, moves.get(i), pack);
                }
            }
        }
        code.iinc(Slots.UNIT, 1).goto_(cond);
        code.labelBinding(end);
        code.return_();
    }

    /**
     * Whether a unit's vector moves load a group before storing it ({@link #loadsThenStores});
     * {@code -Djspin.kernels.loadsFirst=false} compiles them load, store, load, store, as before
     * (for comparisons).
     */
    static final boolean LOADS_FIRST = KernelSettings.current().loadsFirst();
    /** Most vector moves loaded before their stores: 8 of AVX-512's 32 vector registers, 512 bytes. */
    static final int GROUP = 8;
    /** Fewest single moves grouped: two 64-byte moves (128 B blocks) grouped measured level or slower. */
    static final int MIN_GROUP = 4;
    /**
     * The width of the moves that are grouped: AVX-512's. With AVX2's 32-byte moves groups were level
     * or slower (docs/PERFORMANCE.md), so narrower moves stay one at a time.
     */
    static final int GROUPED_WIDTH = 64;
    /**
     * A vector move loop of at most this many groups (16 to 23 moves: 1 KiB blocks of 64-byte moves)
     * loops over groups; a longer one moves one vector at a time, which was faster for 2 and 4 KiB
     * blocks (docs/PERFORMANCE.md).
     */
    static final int MAX_LOOP_GROUPS = 2;
    /** First local slot of a group's loaded vectors (after {@link Slots#INNER}). */
    private static final int GROUP_SLOT = Slots.INNER + 1;

    /** @return how many moves from {@code from} on are single vector moves, up to {@link #GROUP} */
    private static int vectorGroup(List<Move> moves, int from) {
        int n = 0;
        while (LOADS_FIRST && from + n < moves.size() && n < GROUP) {
            Move m = moves.get(from + n);
            if (m.width() != GROUPED_WIDTH || m.repeat() != 1) {
                break;
            }
            n++;
        }
        return n;
    }

    /**
     * A vector move loop of {@link #GROUP} moves or more: a loop of whole groups, then the rest as one
     * group (if it has {@link #MIN_GROUP} moves) or one at a time.
     */
    private static void groupLoop(CodeBuilder code, Slots sl, Move m, boolean pack) {
        int w = m.width();
        int groups = (int) (m.repeat() / GROUP);
        Label cond = code.newLabel();
        Label end = code.newLabel();
        code.iconst_0().istore(Slots.INNER);
        code.labelBinding(cond);
        code.iload(Slots.INNER).loadConstant(groups).if_icmpge(end);
        loadsThenStores(code, sl, singles(m, 0, GROUP), pack, Slots.INNER, GROUP * w);
        code.iinc(Slots.INNER, 1).goto_(cond);
        code.labelBinding(end);
        List<Move> rest = singles(m, groups * GROUP, (int) (m.repeat() % GROUP));
        if (rest.size() >= MIN_GROUP) {
            loadsThenStores(code, sl, rest, pack, -1, 0);
        } else {
            for (Move r : rest) {
                one(code, sl, r, pack, -1);
            }
        }
    }

    /** @return moves {@code first} to {@code first + count - 1} of loop {@code m}, as single moves */
    private static List<Move> singles(Move m, int first, int count) {
        List<Move> out = new ArrayList<>(count);
        for (int k = first; k < first + count; k++) {
            out.add(new Move(m.typedOff() + (long) k * m.width(), m.packedOff() + (long) k * m.width(), m.width(), 1));
        }
        return out;
    }

    /**
     * Single vector moves as all their loads, then all their stores; with {@code inner >= 0} each
     * displaced by {@code inner * step}. A pack's or unpack's typed and packed buffers do not overlap
     * (MPI forbids an output buffer to alias another argument), so the order of the loads and stores
     * changes nothing but the time.
     */
    private static void loadsThenStores(CodeBuilder code, Slots sl, List<Move> group, boolean pack, int inner,
                                        int step) {
        int srcSeg = pack ? sl.typedSeg() : sl.packedSeg();
        int srcUnit = pack ? Slots.TYPED_UNIT : Slots.PACKED_UNIT;
        int dstSeg = pack ? sl.packedSeg() : sl.typedSeg();
        int dstUnit = pack ? Slots.PACKED_UNIT : Slots.TYPED_UNIT;
        for (int k = 0; k < group.size(); k++) {
            Move m = group.get(k);
            int w = m.width();
            code.getstatic(CD_HOLDER, "T" + w, CD_CLASS);
            code.getstatic(CD_HOLDER, "V" + w, CD_SPECIES);
            address(code, srcSeg, srcUnit, pack ? m.typedOff() : m.packedOff(), inner, step);
            code.getstatic(CD_HOLDER, "ORDER", CD_ORDER);
            code.invokestatic(CD_BYTE_VECTOR, "fromMemorySegment", MTD_VLOAD, false);
            code.invokevirtual(CD_CLASS, "cast", MTD_CAST);
            code.checkcast(CD_BYTE_VECTOR);
            code.astore(GROUP_SLOT + k);
        }
        for (int k = 0; k < group.size(); k++) {
            Move m = group.get(k);
            code.aload(GROUP_SLOT + k);
            address(code, dstSeg, dstUnit, pack ? m.packedOff() : m.typedOff(), inner, step);
            code.getstatic(CD_HOLDER, "ORDER", CD_ORDER);
            code.invokevirtual(CD_BYTE_VECTOR, "intoMemorySegment", MTD_VSTORE);
        }
    }

    private static void move(CodeBuilder code, Slots sl, Move m, boolean pack) {
        if (m.width() == 0) { // bulk: MemorySegment.copy(src, srcOff, dst, dstOff, bytes), or memmove (NativeCopy)
            if (pack) {
                address(code, sl.typedSeg(), Slots.TYPED_UNIT, m.typedOff(), -1, 0);
                address(code, sl.packedSeg(), Slots.PACKED_UNIT, m.packedOff(), -1, 0);
            } else {
                address(code, sl.packedSeg(), Slots.PACKED_UNIT, m.packedOff(), -1, 0);
                address(code, sl.typedSeg(), Slots.TYPED_UNIT, m.typedOff(), -1, 0);
            }
            code.loadConstant(m.repeat());
            if (NativeCopy.suits(m.repeat(), Kernels.vectorWidth(), pack)) {
                code.invokestatic(CD_NATIVE_COPY, "copy", MTD_BULK, false);
            } else {
                code.invokestatic(CD_SEGMENT, "copy", MTD_BULK, true);
            }
            return;
        }
        if (m.repeat() == 1) {
            one(code, sl, m, pack, -1);
            return;
        }
        if (LOADS_FIRST && m.width() == GROUPED_WIDTH && m.repeat() >= GROUP && m.repeat() / GROUP <= MAX_LOOP_GROUPS) {
            groupLoop(code, sl, m, pack);
            return;
        }
        Label cond = code.newLabel();
        Label end = code.newLabel();
        code.iconst_0().istore(Slots.INNER);
        code.labelBinding(cond);
        code.iload(Slots.INNER).loadConstant((int) m.repeat()).if_icmpge(end);
        one(code, sl, m, pack, Slots.INNER);
        code.iinc(Slots.INNER, 1).goto_(cond);
        code.labelBinding(end);
    }

    /** One load and store; with {@code inner >= 0} displaced by {@code inner * width}. */
    private static void one(CodeBuilder code, Slots sl, Move m, boolean pack, int inner) {
        int w = m.width();
        int srcSeg = pack ? sl.typedSeg() : sl.packedSeg();
        int srcUnit = pack ? Slots.TYPED_UNIT : Slots.PACKED_UNIT;
        long srcOff = pack ? m.typedOff() : m.packedOff();
        int dstSeg = pack ? sl.packedSeg() : sl.typedSeg();
        int dstUnit = pack ? Slots.PACKED_UNIT : Slots.TYPED_UNIT;
        long dstOff = pack ? m.packedOff() : m.typedOff();
        if (w >= 16) {
            // ((ByteVector) T<w>.cast(ByteVector.fromMemorySegment(V<w>, src, off, ORDER)))
            //         .intoMemorySegment(dst, off, ORDER)
            // the cast gives C2 the vector's exact class for the store (VectorSpeciesHolder.T32)
            code.getstatic(CD_HOLDER, "T" + w, CD_CLASS);
            code.getstatic(CD_HOLDER, "V" + w, CD_SPECIES);
            address(code, srcSeg, srcUnit, srcOff, inner, w);
            code.getstatic(CD_HOLDER, "ORDER", CD_ORDER);
            code.invokestatic(CD_BYTE_VECTOR, "fromMemorySegment", MTD_VLOAD, false);
            code.invokevirtual(CD_CLASS, "cast", MTD_CAST);
            code.checkcast(CD_BYTE_VECTOR);
            address(code, dstSeg, dstUnit, dstOff, inner, w);
            code.getstatic(CD_HOLDER, "ORDER", CD_ORDER);
            code.invokevirtual(CD_BYTE_VECTOR, "intoMemorySegment", MTD_VSTORE);
            return;
        }
        Scalar s = Scalar.of(w);
        // dst.set(LAYOUT, dstAddr, src.get(LAYOUT, srcAddr))
        code.aload(dstSeg);
        code.getstatic(CD_LAYOUTS, s.layout, s.layoutType);
        unitOffset(code, dstUnit, dstOff, inner, w);
        code.aload(srcSeg);
        code.getstatic(CD_LAYOUTS, s.layout, s.layoutType);
        unitOffset(code, srcUnit, srcOff, inner, w);
        code.invokeinterface(CD_SEGMENT, "get", MethodTypeDesc.of(s.value, s.layoutType, CD_long));
        code.invokeinterface(CD_SEGMENT, "set", MethodTypeDesc.of(CD_void, s.layoutType, CD_long, s.value));
    }

    /** Pushes a segment and a long address. */
    private static void address(CodeBuilder code, int seg, int unit, long off, int inner, int width) {
        code.aload(seg);
        unitOffset(code, unit, off, inner, width);
    }

    /** Pushes local[unit] + off (+ inner * width). */
    private static void unitOffset(CodeBuilder code, int unit, long off, int inner, int width) {
        code.lload(unit);
        if (off != 0) {
            code.loadConstant(off).ladd();
        }
        if (inner >= 0) {
            code.iload(inner).i2l().loadConstant((long) width).lmul().ladd();
        }
    }

    /** Layout field and value type of a scalar move width. */
    private record Scalar(String layout, ClassDesc layoutType, ClassDesc value) {
        static Scalar of(int width) {
            return switch (width) {
                case 1 -> new Scalar("JAVA_BYTE", ClassDesc.of("java.lang.foreign.ValueLayout$OfByte"),
                        java.lang.constant.ConstantDescs.CD_byte);
                case 2 -> new Scalar("JAVA_SHORT_UNALIGNED", ClassDesc.of("java.lang.foreign.ValueLayout$OfShort"),
                        java.lang.constant.ConstantDescs.CD_short);
                case 4 -> new Scalar("JAVA_INT_UNALIGNED", ClassDesc.of("java.lang.foreign.ValueLayout$OfInt"),
                        CD_int);
                case 8 -> new Scalar("JAVA_LONG_UNALIGNED", ClassDesc.of("java.lang.foreign.ValueLayout$OfLong"),
                        CD_long);
                default -> throw new IllegalArgumentException("no scalar move of width " + width);
            };
        }
    }
}
