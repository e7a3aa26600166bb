package io.rill.util;

import java.util.Locale;

/**
 * The operating system and CPU architecture in the normalised spelling used to name Rill's
 * native libraries ({@code rill_transport_native_epoll_x86_64}) and Maven classifiers
 * ({@code linux-x86_64}): the JDK reports {@code amd64} on Linux, {@code x86_64} on macOS and
 * {@code aarch64} or {@code arm64}, which must all map to one name each.
 */
public final class PlatformInfo {

    private static final String OS = normalizeOs(System.getProperty("os.name", ""));
    private static final String ARCH = normalizeArch(System.getProperty("os.arch", ""));

    private PlatformInfo() {
    }

    /**
     * {@return the normalised OS name: {@code linux}, {@code osx}, {@code windows}, {@code freebsd}, ... or
     * {@code unknown}}
     */
    public static String os() {
        return OS;
    }

    /**
     * {@return the normalised CPU name: {@code x86_64}, {@code aarch_64}, {@code x86_32}, {@code ppcle_64}, ...
     * or {@code unknown}}
     */
    public static String arch() {
        return ARCH;
    }

    /** {@return {@code os() + "-" + arch()}, the usual classifier of a native artifact} */
    public static String classifier() {
        return OS + '-' + ARCH;
    }

    /** {@return true on Linux} */
    public static boolean isLinux() {
        return OS.equals("linux");
    }

    /** {@return true on macOS} */
    public static boolean isOsx() {
        return OS.equals("osx");
    }

    /** {@return true on Windows} */
    public static boolean isWindows() {
        return OS.equals("windows");
    }

    static String normalizeOs(String value) {
        String os = clean(value);
        if (os.startsWith("linux")) {
            return "linux";
        }
        if (os.startsWith("macosx") || os.startsWith("osx") || os.startsWith("darwin") || os.startsWith("mac")) {
            return "osx";
        }
        if (os.startsWith("windows")) {
            return "windows";
        }
        for (String known : new String[] {"freebsd", "openbsd", "netbsd", "aix", "zos"}) {
            if (os.startsWith(known)) {
                return known;
            }
        }
        if (os.startsWith("solaris") || os.startsWith("sunos")) {
            return "sunos";
        }
        return "unknown";
    }

    static String normalizeArch(String value) {
        String arch = clean(value);
        switch (arch) {
            case "x8664": case "amd64": case "ia32e": case "em64t": case "x64":
                return "x86_64";
            case "x8632": case "x86": case "i386": case "i486": case "i586": case "i686": case "ia32": case "x32":
                return "x86_32";
            case "aarch64": case "arm64":
                return "aarch_64";
            case "arm": case "arm32":
                return "arm_32";
            case "ppc64le":
                return "ppcle_64";
            case "ppc64":
                return "ppc_64";
            case "ppc": case "ppc32":
                return "ppc_32";
            case "s390x":
                return "s390_64";
            case "s390":
                return "s390_32";
            case "riscv64":
                return "riscv64";
            case "loongarch64":
                return "loongarch_64";
            default:
                return "unknown";
        }
    }

    /** Lower case, letters and digits only: "Mac OS X" becomes "macosx", "x86-64" "x8664". */
    private static String clean(String value) {
        return value.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "");
    }
}
