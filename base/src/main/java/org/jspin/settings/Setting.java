package org.jspin.settings;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * One setting a user may give: a system property ({@code -Djspin....}), optionally also an
 * environment variable (the property wins), its default, and how its text becomes a value. A
 * malformed value is refused with {@code ERR_ARG} naming where it came from and what it was, never
 * replaced by the default. Settings are declared as constants of their layer's settings record and
 * read through {@link Settings}.
 *
 * @param <T> the value's type
 */
public final class Setting<T> {
    private final String property;
    private final String environment;
    private final T fallback;
    private final String expected;
    private final Function<String, T> parser;
    private final String description;

    private Setting(String property, String environment, T fallback, String expected, Function<String, T> parser,
                    String description) {
        this.property = Objects.requireNonNull(property, "property");
        this.environment = environment;
        this.fallback = fallback;
        this.expected = expected;
        this.parser = parser;
        this.description = Objects.requireNonNull(description, "description");
    }

    /** A whole number in {@code [min, max]}. */
    public static Setting<Long> number(String property, long fallback, long min, long max, String description) {
        return new Setting<>(property, null, fallback, "an integer in [" + min + ", " + max + "]", text -> {
            long n = Long.parseLong(text);
            return n >= min && n <= max ? n : null;
        }, description);
    }

    /** A finite decimal number in {@code [min, max]}. */
    public static Setting<Double> decimal(String property, double fallback, double min, double max, String description) {
        return new Setting<>(property, null, fallback, "a number in [" + min + ", " + max + "]", text -> {
            double x = Double.parseDouble(text);
            return x >= min && x <= max ? x : null; // NaN fails both
        }, description);
    }

    /** {@code true} or {@code false}, and nothing else. */
    public static Setting<Boolean> flag(String property, boolean fallback, String description) {
        return new Setting<>(property, null, fallback, "true or false", text -> switch (text.toLowerCase(Locale.ROOT)) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default -> null;
        }, description);
    }

    /** One of {@code choices} (compared without case); the value is the choice as listed. */
    public static Setting<String> choice(String property, String fallback, List<String> choices, String description) {
        return new Setting<>(property, null, fallback, "one of " + choices, text -> choices.stream()
                .filter(c -> c.equalsIgnoreCase(text)).findFirst().orElse(null), description);
    }

    /** Free text, checked by whoever uses it (a list of parameters, a path); blank is unset. */
    public static Setting<String> text(String property, String fallback, String description) {
        return new Setting<>(property, null, fallback, "text", text -> text, description);
    }

    /** @return the same setting, also read from environment variable {@code name} when the property is unset */
    public Setting<T> orEnvironment(String name) {
        return new Setting<>(property, Objects.requireNonNull(name, "name"), fallback, expected, parser, description);
    }

    /** @return the system property's name */
    public String property() {
        return property;
    }

    /** @return the environment variable's name, or null if it has none */
    public String environment() {
        return environment;
    }

    /** @return the value when the setting is not given (may be null: "not set") */
    public T fallback() {
        return fallback;
    }

    /** @return what the setting is for, in a line */
    public String description() {
        return description;
    }

    /**
     * @param text   the given text, trimmed and not blank
     * @param origin where it was given, for the error
     * @throws MpiException ERR_ARG naming the origin and the text if it is malformed
     */
    T parse(String text, String origin) {
        T value;
        try {
            value = parser.apply(text);
        } catch (NumberFormatException e) {
            value = null;
        }
        if (value == null) {
            throw new MpiException(ErrorClass.ERR_ARG, origin + " must be " + expected + ", got '" + text + "'");
        }
        return value;
    }

    @Override
    public String toString() {
        return property + (environment == null ? "" : " (" + environment + ")");
    }
}
