package org.jspin.datatype;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/** Argument checks and overflow-checked arithmetic shared by the constructors. */
final class Args {
    private Args() {
    }

    static long count(String name, long value) {
        if (value < 0) {
            throw new MpiException(ErrorClass.ERR_COUNT, name + " must be non-negative, got " + value);
        }
        return value;
    }

    static long nonNegative(String name, long value) {
        if (value < 0) {
            throw new MpiException(ErrorClass.ERR_ARG, name + " must be non-negative, got " + value);
        }
        return value;
    }

    static long[] nonNegative(String name, long[] values) {
        notNull(name, values);
        for (int i = 0; i < values.length; i++) {
            nonNegative(name + "[" + i + "]", values[i]);
        }
        return values.clone();
    }

    static <T> T notNull(String name, T value) {
        if (value == null) {
            throw new MpiException(ErrorClass.ERR_ARG, name + " must not be null");
        }
        return value;
    }

    static Datatype type(String name, Datatype value) {
        if (value == null) {
            throw new MpiException(ErrorClass.ERR_TYPE, name + " must not be null");
        }
        return value;
    }

    static void sameLength(String a, int lenA, String b, int lenB) {
        if (lenA != lenB) {
            throw new MpiException(ErrorClass.ERR_ARG,
                    a + " has " + lenA + " entries but " + b + " has " + lenB);
        }
    }

    static long mul(long a, long b, String what) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            throw overflow(what, a + " * " + b);
        }
    }

    static long add(long a, long b, String what) {
        try {
            return Math.addExact(a, b);
        } catch (ArithmeticException e) {
            throw overflow(what, a + " + " + b);
        }
    }

    static MpiException overflow(String what, String expr) {
        return new MpiException(ErrorClass.ERR_ARG, what + " overflows 64 bits (" + expr + ")");
    }
}
