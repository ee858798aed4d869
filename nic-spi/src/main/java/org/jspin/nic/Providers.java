package org.jspin.nic;

import java.util.ServiceLoader;
import java.util.TreeSet;
import java.util.function.Function;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.fabric.FabricProvider;

/** Finds backends and fabrics by name on the class path ({@link ServiceLoader}). */
public final class Providers {
    private Providers() {
    }

    /** @throws MpiException ERR_ARG naming the unknown backend and the ones available */
    public static NicProvider backend(String name) {
        return find(NicProvider.class, NicProvider::name, name, "backend");
    }

    /** @throws MpiException ERR_ARG naming the unknown fabric and the ones available */
    public static FabricProvider fabric(String name) {
        return find(FabricProvider.class, FabricProvider::name, name, "fabric");
    }

    /** @return the names of the backends on the class path, sorted */
    public static TreeSet<String> backends() {
        return names(NicProvider.class, NicProvider::name);
    }

    /** @return the names of the fabrics on the class path, sorted */
    public static TreeSet<String> fabrics() {
        return names(FabricProvider.class, FabricProvider::name);
    }

    private static <T> T find(Class<T> type, Function<T, String> nameOf, String name, String what) {
        for (T p : ServiceLoader.load(type, Providers.class.getClassLoader())) {
            if (nameOf.apply(p).equals(name)) {
                return p;
            }
        }
        throw new MpiException(ErrorClass.ERR_ARG, "no " + what + " named '" + name + "' on the class path; available: "
                + names(type, nameOf));
    }

    private static <T> TreeSet<String> names(Class<T> type, Function<T, String> nameOf) {
        TreeSet<String> names = new TreeSet<>();
        ServiceLoader.load(type, Providers.class.getClassLoader()).forEach(p -> names.add(nameOf.apply(p)));
        return names;
    }
}
