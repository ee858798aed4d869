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
import java.util.List;

/**
 * Compiles a unit's moves into a {@link CopyKernel} class: a counted loop over units whose body is
 * straight-line loads and stores at constant offsets, with the unit stride and size as constants. The
 * JIT then sees constant scales (so it hoists the segment bounds checks and unrolls) and no calls but
 * the intrinsic segment and vector accesses. One class per shape, defined as a hidden class.
 *
 * <p>Locals of the generated methods: 0 this, 1 first segment, 2-3 its offset, 4 second segment,
 * 5-6 its offset, 7 unit count, 8 unit index, 9-10 typed unit address, 11-12 packed unit address,
 * 13 inner loop index.
 */
final class KernelCompiler {
    private static final ClassDesc CD_SEGMENT = ClassDesc.of("java.lang.foreign.MemorySegment");
    private static final ClassDesc CD_KERNEL = ClassDesc.of(CopyKernel.class.getName());
    private static final ClassDesc CD_BYTE_VECTOR = ClassDesc.of("jdk.incubator.vector.ByteVector");
    private static final ClassDesc CD_SPECIES = ClassDesc.of("jdk.incubator.vector.VectorSpecies");
    private static final ClassDesc CD_ORDER = ClassDesc.of("java.nio.ByteOrder");
    private static final ClassDesc CD_HOLDER = ClassDesc.of(VectorSpeciesHolder.class.getName());
    private static final ClassDesc CD_LAYOUTS = ClassDesc.of("java.lang.foreign.ValueLayout");
    private static final MethodTypeDesc MTD_COPY = MethodTypeDesc.of(CD_void, CD_SEGMENT, CD_long, CD_SEGMENT,
            CD_long, CD_int);
    private static final MethodTypeDesc MTD_BULK = MethodTypeDesc.of(CD_void, CD_SEGMENT, CD_long, CD_SEGMENT,
            CD_long, CD_long);
    private static final MethodTypeDesc MTD_VLOAD = MethodTypeDesc.of(CD_BYTE_VECTOR, CD_SPECIES, CD_SEGMENT,
            CD_long, CD_ORDER);
    private static final MethodTypeDesc MTD_VSTORE = MethodTypeDesc.of(CD_void, CD_SEGMENT, CD_long, CD_ORDER);

    private static final int TYPED_UNIT = 9;
    private static final int PACKED_UNIT = 11;

    private KernelCompiler() {
    }

    /**
     * @param stride typed bytes between units
     * @param size   packed bytes per unit
     * @param moves  the unit's moves, in type-map order
     */
    static CopyKernel compile(MethodHandles.Lookup lookup, long stride, long size, List<Move> moves)
            throws ReflectiveOperationException {
        ClassDesc self = ClassDesc.of(KernelCompiler.class.getPackageName() + ".CompiledKernel");
        byte[] bytes = ClassFile.of().build(self, cb -> {
            cb.withFlags(AccessFlag.FINAL, AccessFlag.SYNTHETIC);
            cb.withInterfaceSymbols(CD_KERNEL);
            cb.withMethodBody(INIT_NAME, MTD_void, ClassFile.ACC_PUBLIC,
                    code -> code.aload(0).invokespecial(CD_Object, INIT_NAME, MTD_void).return_());
            // gather(typed, at, packed, off, n): typed is local 1, packed local 4
            cb.withMethodBody("gather", MTD_COPY, ClassFile.ACC_PUBLIC,
                    code -> loop(code, stride, size, moves, 2, 5, true));
            // scatter(packed, off, typed, at, n): packed is local 1, typed local 4
            cb.withMethodBody("scatter", MTD_COPY, ClassFile.ACC_PUBLIC,
                    code -> loop(code, stride, size, moves, 5, 2, false));
        });
        Class<?> c = lookup.defineHiddenClass(bytes, true).lookupClass();
        return (CopyKernel) c.getDeclaredConstructor().newInstance();
    }

    private static void loop(CodeBuilder code, long stride, long size, List<Move> moves, int typedAt,
            int packedAt, boolean pack) {
        Label cond = code.newLabel();
        Label end = code.newLabel();
        code.iconst_0().istore(8);
        code.labelBinding(cond);
        code.iload(8).iload(7).if_icmpge(end);
        unitAddress(code, typedAt, stride, TYPED_UNIT);
        unitAddress(code, packedAt, size, PACKED_UNIT);
        for (Move m : moves) {
            move(code, m, pack);
        }
        code.iinc(8, 1).goto_(cond);
        code.labelBinding(end);
        code.return_();
    }

    /** local[dst] = local[base] + scale * i */
    private static void unitAddress(CodeBuilder code, int base, long scale, int dst) {
        code.lload(base).loadConstant(scale).iload(8).i2l().lmul().ladd().lstore(dst);
    }

    private static void move(CodeBuilder code, Move m, boolean pack) {
        int typedSeg = pack ? 1 : 4;
        int packedSeg = pack ? 4 : 1;
        if (m.width() == 0) { // bulk: MemorySegment.copy(src, srcOff, dst, dstOff, bytes)
            if (pack) {
                address(code, typedSeg, TYPED_UNIT, m.typedOff(), -1, 0);
                address(code, packedSeg, PACKED_UNIT, m.packedOff(), -1, 0);
            } else {
                address(code, packedSeg, PACKED_UNIT, m.packedOff(), -1, 0);
                address(code, typedSeg, TYPED_UNIT, m.typedOff(), -1, 0);
            }
            code.loadConstant(m.repeat());
            code.invokestatic(CD_SEGMENT, "copy", MTD_BULK, true);
            return;
        }
        if (m.repeat() == 1) {
            one(code, m, pack, typedSeg, packedSeg, -1);
            return;
        }
        Label cond = code.newLabel();
        Label end = code.newLabel();
        code.iconst_0().istore(13);
        code.labelBinding(cond);
        code.iload(13).loadConstant((int) m.repeat()).if_icmpge(end);
        one(code, m, pack, typedSeg, packedSeg, 13);
        code.iinc(13, 1).goto_(cond);
        code.labelBinding(end);
    }

    /** One load and store; with {@code inner >= 0} displaced by {@code inner * width}. */
    private static void one(CodeBuilder code, Move m, boolean pack, int typedSeg, int packedSeg, int inner) {
        int w = m.width();
        int srcSeg = pack ? typedSeg : packedSeg;
        int srcUnit = pack ? TYPED_UNIT : PACKED_UNIT;
        long srcOff = pack ? m.typedOff() : m.packedOff();
        int dstSeg = pack ? packedSeg : typedSeg;
        int dstUnit = pack ? PACKED_UNIT : TYPED_UNIT;
        long dstOff = pack ? m.packedOff() : m.typedOff();
        if (w >= 16) {
            String species = "V" + w;
            code.getstatic(CD_HOLDER, species, CD_SPECIES);
            address(code, srcSeg, srcUnit, srcOff, inner, w);
            code.getstatic(CD_HOLDER, "ORDER", CD_ORDER);
            code.invokestatic(CD_BYTE_VECTOR, "fromMemorySegment", MTD_VLOAD, false);
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
