package org.jspin.nic;

import java.util.List;

import org.jspin.settings.Setting;

/**
 * The protocol settings a user gives from outside the program (the program gives the rest in
 * {@link NicConfig}); kept apart from {@link NicConfig} so that they can be checked before
 * {@link NicConfig#DEFAULT} is built from them.
 */
public final class NicSettings {
    /** {@code -Djspin.eager.credit}: the eager credit per peer of settings that do not give one. */
    public static final Setting<Long> EAGER_CREDIT = Setting.number("jspin.eager.credit", 2L << 20, 1, 1L << 40,
            "bytes of eager messages a receiver buffers per sender before rendezvous (2 MiB: 128 of 16 KiB, 32 of 64 KiB)");
    /** Every setting of this layer, for {@code jspin config}. */
    public static final List<Setting<?>> ALL = List.of(EAGER_CREDIT);

    private NicSettings() {
    }
}
