package org.jspin.datatype.kernel;

import java.util.List;

import org.jspin.settings.Setting;
import org.jspin.settings.Settings;

/**
 * The copy kernels' settings: switches for comparisons and for the tests of the other kernel paths,
 * read once per JVM, before the first kernel is compiled (a failed compilation falls back to a
 * slower kernel, which would hide a mistyped switch).
 *
 * @param scalar      scalar kernels even where the Vector API is present
 * @param dynamicOnly only the unspecialised kernels
 * @param nativeCopy  bulk copies through the C library's {@code memmove} ({@link NativeCopy})
 * @param loadsFirst  specialised kernels load a unit's vectors before storing them ({@link KernelCompiler#LOADS_FIRST})
 */
public record KernelSettings(boolean scalar, boolean dynamicOnly, boolean nativeCopy, boolean loadsFirst) {
    /** {@code -Djspin.kernels.scalar}. */
    public static final Setting<Boolean> SCALAR = Setting.flag("jspin.kernels.scalar", false,
            "scalar kernels even where the Vector API is present");
    /** {@code -Djspin.kernels.dynamic}. */
    public static final Setting<Boolean> DYNAMIC_ONLY = Setting.flag("jspin.kernels.dynamic", false,
            "only the unspecialised kernels (the tests cover them so)");
    /** {@code -Djspin.kernels.nativeCopy}. */
    public static final Setting<Boolean> NATIVE_COPY = Setting.flag("jspin.kernels.nativeCopy", true,
            "bulk copies through the C library's memmove; false: MemorySegment.copy");
    /** {@code -Djspin.kernels.loadsFirst}. */
    public static final Setting<Boolean> LOADS_FIRST = Setting.flag("jspin.kernels.loadsFirst", true,
            "compiled kernels load a unit's vectors before storing them; false: load, store, load, store");
    /** Every setting of this layer, for {@code jspin config}. */
    public static final List<Setting<?>> ALL = List.of(SCALAR, DYNAMIC_ONLY, NATIVE_COPY, LOADS_FIRST);

    private static volatile KernelSettings loaded;

    /**
     * @return the settings in {@code settings}
     * @throws org.jspin.error.MpiException ERR_ARG naming the switch and its value if one is neither true nor false
     */
    public static KernelSettings from(Settings settings) {
        return new KernelSettings(settings.get(SCALAR), settings.get(DYNAMIC_ONLY), settings.get(NATIVE_COPY),
                settings.get(LOADS_FIRST));
    }

    /**
     * @return this JVM's kernel settings, read at the first call that succeeds
     * @throws org.jspin.error.MpiException ERR_ARG if a switch is malformed (at every call: nothing is kept)
     */
    public static KernelSettings current() {
        KernelSettings k = loaded;
        if (k == null) {
            k = from(Settings.current());
            loaded = k;
        }
        return k;
    }
}
