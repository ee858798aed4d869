package org.jspin.cli;

import picocli.CommandLine.ITypeConverter;

/** Reads {@code --bind-to}'s value ({@link Binding#parse}). */
final class BindingConverter implements ITypeConverter<Binding> {
    @Override
    public Binding convert(String value) {
        return Binding.parse(value);
    }
}
