/** Helpers shared by the packages of this module; not exported. */
package io.rill.handler.codec.http.internal;
