package io.rill.handler.codec.http.multipart;

/**
 * One item of a decoded POST body: a form field ({@link Attribute}) or an uploaded file
 * ({@link FileUpload}).
 */
public abstract sealed class HttpData permits Attribute, FileUpload {

    private final String name;

    HttpData(String name) {
        this.name = name;
    }

    /**
     * The field name, as the form sent it.
     *
     * @return the name
     */
    public String name() {
        return name;
    }
}
