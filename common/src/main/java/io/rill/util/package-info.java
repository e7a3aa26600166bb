/**
 * Rill's base utilities that are not about concurrency: {@link io.rill.util.AsciiString} (the
 * byte string of header names and values), the {@link io.rill.util.HashedWheelTimer} for many
 * cheap timeouts, the {@link io.rill.util.ObjectPool}, the {@link io.rill.util.ResourceLeakDetector}
 * that reports buffers garbage-collected without a release, {@link io.rill.util.NativeLibraryLoader},
 * and {@link io.rill.util.RillProperties}, the one place that reads each {@code rill.*} system
 * property and documents its default and its reason.
 *
 * <p>{@link io.rill.util.InternalLogger} is Rill's thin facade over {@link java.lang.System.Logger}:
 * public so that Rill's modules share it, not meant for applications. {@code PlatformInfo} and
 * {@code SystemPropertyUtil} are for Rill's own use too.
 */
package io.rill.util;
