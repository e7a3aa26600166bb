/*
 * Library entry: JNI_OnLoad registers every native method of io.rill.channel.epoll.Native from
 * one table (no Java_* symbol naming, so a renamed class fails loudly at load, not at first call),
 * plus the helpers every part needs: the address of a direct ByteBuffer, strerror, and the
 * layout of struct epoll_event, which differs by architecture (packed on x86_64 only).
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <string.h>
#include <sys/epoll.h>
#include "rill_jni.h"

#define NATIVE_CLASS "io/rill/channel/epoll/Native"

static jlong rill_buffer_address(JNIEnv *env, jclass clazz, jobject buffer) {
    void *address = (*env)->GetDirectBufferAddress(env, buffer);
    return (jlong) (intptr_t) address;
}

static jstring rill_strerror(JNIEnv *env, jclass clazz, jint err) {
    char buf[256];
    /* glibc's GNU strerror_r may return a static string instead of filling buf; musl's is XSI. */
#ifdef __GLIBC__
    const char *message = strerror_r(err, buf, sizeof(buf));
#else
    const char *message = strerror_r(err, buf, sizeof(buf)) == 0 ? buf : "Unknown error";
#endif
    return (*env)->NewStringUTF(env, message);
}

static jint rill_epoll_event_size(JNIEnv *env, jclass clazz) {
    return (jint) sizeof(struct epoll_event);
}

static jint rill_epoll_data_offset(JNIEnv *env, jclass clazz) {
    return (jint) offsetof(struct epoll_event, data);
}

static const JNINativeMethod rill_jni_methods[] = {
    {"bufferAddress", "(Ljava/nio/ByteBuffer;)J", (void *) rill_buffer_address},
    {"strerror", "(I)Ljava/lang/String;", (void *) rill_strerror},
    {"epollEventSize", "()I", (void *) rill_epoll_event_size},
    {"epollDataOffset", "()I", (void *) rill_epoll_data_offset},
};

static int rill_register(JNIEnv *env, jclass clazz, const JNINativeMethod *methods, int count) {
    return (*env)->RegisterNatives(env, clazz, methods, count) == 0 ? 0 : -1;
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
    JNIEnv *env;
    if ((*vm)->GetEnv(vm, (void **) &env, JNI_VERSION_1_8) != JNI_OK) {
        return JNI_ERR;
    }
    jclass clazz = (*env)->FindClass(env, NATIVE_CLASS);
    if (clazz == NULL) {
        return JNI_ERR; /* NoClassDefFoundError is pending and explains it */
    }
    if (rill_register(env, clazz, rill_jni_methods, sizeof(rill_jni_methods) / sizeof(rill_jni_methods[0])) != 0
            || rill_register(env, clazz, rill_epoll_methods, rill_epoll_method_count) != 0
            || rill_register(env, clazz, rill_socket_methods, rill_socket_method_count) != 0
            || rill_register(env, clazz, rill_io_methods, rill_io_method_count) != 0
            || rill_register(env, clazz, rill_unix_methods, rill_unix_method_count) != 0
            || rill_register(env, clazz, rill_datagram_methods, rill_datagram_method_count) != 0) {
        return JNI_ERR;
    }
    return JNI_VERSION_1_8;
}
