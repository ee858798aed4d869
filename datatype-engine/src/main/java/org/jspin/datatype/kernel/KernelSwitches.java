package org.jspin.datatype.kernel;

import java.util.Locale;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * The kernels' on/off switches for comparisons ({@code -Djspin.kernels.nativeCopy},
 * {@code -Djspin.kernels.loadsFirst}): unset, {@code true} or {@code false}, and nothing else, so
 * that a mistyped value fails at once rather than measuring the default under another name.
 */
final class KernelSwitches {
    private KernelSwitches() {
    }

    /**
     * @param property  the system property's name
     * @param value     its value, or null if unset
     * @param otherwise what an unset switch means
     * @return the switch's setting
     * @throws MpiException ERR_ARG naming the property and the value if it is neither true nor false
     */
    static boolean flag(String property, String value, boolean otherwise) {
        if (value == null) {
            return otherwise;
        }
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new MpiException(ErrorClass.ERR_ARG,
                    "-D" + property + " must be true or false, got '" + value + "'");
        };
    }

    /** The switch that leaves the kernels' bulk copies to {@code MemorySegment.copy} ({@link NativeCopy}). */
    static final String NATIVE_COPY = "jspin.kernels.nativeCopy";
    /** The switch that compiles vector moves one at a time ({@link KernelCompiler#LOADS_FIRST}). */
    static final String LOADS_FIRST = "jspin.kernels.loadsFirst";

    /**
     * Checks both switches where a bad value can be reported: before a kernel is compiled, since a
     * failed compilation falls back to a slower kernel (which would hide the mistake).
     *
     * @throws MpiException ERR_ARG naming the switch and its value if either is neither true nor false
     */
    static void check() {
        flag(NATIVE_COPY, true);
        flag(LOADS_FIRST, true);
    }

    /** {@link #flag(String, String, boolean)} of the system property {@code property}. */
    static boolean flag(String property, boolean otherwise) {
        return flag(property, System.getProperty(property), otherwise);
    }
}
