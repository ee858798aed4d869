package org.jspin.mpi.op;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import java.lang.foreign.MemorySegment;

import org.jspin.datatype.Datatype;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * The predefined reduction operators on the named types ({@code MPI_SUM}, {@code MPI_PROD},
 * {@code MPI_MIN}, {@code MPI_MAX}), and user operators. Integer arithmetic wraps as C's does; float
 * min and max follow {@link Math#min}/{@link Math#max} (a NaN operand gives NaN).
 */
public final class Ops {
    /** {@code MPI_SUM}. */
    public static final ReduceOp SUM = new Predefined("SUM", Kind.SUM);
    /** {@code MPI_PROD}. */
    public static final ReduceOp PROD = new Predefined("PROD", Kind.PROD);
    /** {@code MPI_MIN}. */
    public static final ReduceOp MIN = new Predefined("MIN", Kind.MIN);
    /** {@code MPI_MAX}. */
    public static final ReduceOp MAX = new Predefined("MAX", Kind.MAX);

    private Ops() {
    }

    /** What a user operator computes: {@code inout[i] = in[i] op inout[i]} for {@code count} elements. */
    @FunctionalInterface
    public interface UserFunction {
        /** Combines {@code count} elements of {@code type} from {@code in} into {@code inout}. */
        void apply(MemorySegment in, MemorySegment inout, long count, Datatype type);
    }

    /**
     * Checks that {@code op} is defined on {@code type}, as collectives do before any message
     * moves: the predefined operators are defined on the named types only, user operators on any.
     *
     * @throws MpiException ERR_OP naming the operator and the type, or for a null operator;
     *                      ERR_TYPE for a null type
     */
    public static void checkApplicable(ReduceOp op, Datatype type) {
        // null arguments are invalid ones, not "applicable": a null op passed silently and a null
        // type was blamed on the operator (found by CallFuzzTest)
        if (op == null) {
            throw new MpiException(ErrorClass.ERR_OP, "reduction operator must not be null");
        }
        if (type == null) {
            throw new MpiException(ErrorClass.ERR_TYPE, op.name() + ": datatype must not be null");
        }
        if (op instanceof Predefined p && !Predefined.supports(type)) {
            throw p.undefinedOn(type);
        }
    }

    /** {@code MPI_Op_create}: a user operator, commutative or not. */
    public static ReduceOp user(String name, UserFunction function, boolean commutative) {
        if (function == null) {
            throw new MpiException(ErrorClass.ERR_OP, "user operator " + name + " has no function");
        }
        return new ReduceOp() {
            @Override
            public void apply(MemorySegment in, MemorySegment inout, long count, Datatype type) {
                checkBuffers(this, in, inout, count, type);
                function.apply(in, inout, count, type);
            }

            @Override
            public boolean commutative() {
                return commutative;
            }

            @Override
            public String name() {
                return name;
            }
        };
    }

    private enum Kind { SUM, PROD, MIN, MAX }

    private record Predefined(String name, Kind kind) implements ReduceOp {
        @Override
        public boolean commutative() {
            return true;
        }

        @Override
        public void apply(MemorySegment in, MemorySegment inout, long count, Datatype type) {
            checkBuffers(this, in, inout, count, type);
            if (type == Datatype.INT) {
                for (long i = 0; i < count; i++) {
                    long o = 4 * i;
                    inout.set(JAVA_INT_UNALIGNED, o, ints(in.get(JAVA_INT_UNALIGNED, o), inout.get(JAVA_INT_UNALIGNED, o)));
                }
            } else if (type == Datatype.LONG) {
                for (long i = 0; i < count; i++) {
                    long o = 8 * i;
                    inout.set(JAVA_LONG_UNALIGNED, o,
                            longs(in.get(JAVA_LONG_UNALIGNED, o), inout.get(JAVA_LONG_UNALIGNED, o)));
                }
            } else if (type == Datatype.DOUBLE) {
                for (long i = 0; i < count; i++) {
                    long o = 8 * i;
                    inout.set(JAVA_DOUBLE_UNALIGNED, o,
                            doubles(in.get(JAVA_DOUBLE_UNALIGNED, o), inout.get(JAVA_DOUBLE_UNALIGNED, o)));
                }
            } else if (type == Datatype.FLOAT) {
                for (long i = 0; i < count; i++) {
                    long o = 4 * i;
                    inout.set(JAVA_FLOAT_UNALIGNED, o,
                            (float) doubles(in.get(JAVA_FLOAT_UNALIGNED, o), inout.get(JAVA_FLOAT_UNALIGNED, o)));
                }
            } else if (type == Datatype.SHORT) {
                for (long i = 0; i < count; i++) {
                    long o = 2 * i;
                    inout.set(JAVA_SHORT_UNALIGNED, o,
                            (short) ints(in.get(JAVA_SHORT_UNALIGNED, o), inout.get(JAVA_SHORT_UNALIGNED, o)));
                }
            } else if (type == Datatype.BYTE) {
                for (long i = 0; i < count; i++) {
                    inout.set(JAVA_BYTE, i, (byte) ints(in.get(JAVA_BYTE, i), inout.get(JAVA_BYTE, i)));
                }
            } else {
                throw undefinedOn(type);
            }
        }

        static boolean supports(Datatype type) {
            return type == Datatype.INT || type == Datatype.LONG || type == Datatype.DOUBLE || type == Datatype.FLOAT
                    || type == Datatype.SHORT || type == Datatype.BYTE;
        }

        MpiException undefinedOn(Datatype type) {
            String t = String.valueOf(type);
            return new MpiException(ErrorClass.ERR_OP, name + " is defined on the named types only, not on "
                    + (t.length() <= 200 ? t : t.substring(0, 197) + "..."));
        }

        private int ints(int a, int b) {
            return switch (kind) {
                case SUM -> a + b;
                case PROD -> a * b;
                case MIN -> Math.min(a, b);
                case MAX -> Math.max(a, b);
            };
        }

        private long longs(long a, long b) {
            return switch (kind) {
                case SUM -> a + b;
                case PROD -> a * b;
                case MIN -> Math.min(a, b);
                case MAX -> Math.max(a, b);
            };
        }

        private double doubles(double a, double b) {
            return switch (kind) {
                case SUM -> a + b;
                case PROD -> a * b;
                case MIN -> Math.min(a, b);
                case MAX -> Math.max(a, b);
            };
        }
    }

    private static void checkBuffers(ReduceOp op, MemorySegment in, MemorySegment inout, long count, Datatype type) {
        if (type == null) {
            throw new MpiException(ErrorClass.ERR_TYPE, op.name() + ": datatype must not be null");
        }
        if (count < 0) {
            throw new MpiException(ErrorClass.ERR_COUNT, op.name() + ": count must be non-negative, got " + count);
        }
        long bytes = type.packSize(count);
        if (in == null || inout == null || in.byteSize() < bytes || inout.byteSize() < bytes) {
            throw new MpiException(ErrorClass.ERR_BUFFER, op.name() + ": " + count + " elements need " + bytes
                    + " bytes, buffers have " + (in == null ? "null" : in.byteSize()) + " and "
                    + (inout == null ? "null" : inout.byteSize()));
        }
        if (inout.isReadOnly()) {
            throw new MpiException(ErrorClass.ERR_BUFFER, op.name() + ": the result buffer is read-only");
        }
    }
}
