/*
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.
 * The ASF licenses this file to You under the Apache License, Version 2.0
 * (the "License"); you may not use this file except in compliance with
 * the License.  You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package org.acme.level;

/** A text label: a CharSequence, whose JDK 15 isEmpty() a Java 8 build lacks. */
public final class Label implements CharSequence {
    private final String text;

    public Label(String text) {
        this.text = text == null ? "" : text;
    }

    public Label append(Label other) {
        return new Label(text + other.text);
    }

    @Override
    public int length() {
        return text.length();
    }

    @Override
    public char charAt(int index) {
        return text.charAt(index);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return new Label(text.substring(start, end));
    }

    /**
     * Opens java.io.File's private path field, as code written for Java 8 could: on Java 9
     * and later this throws InaccessibleObjectException (java.base does not open java.io), a
     * class a test compiled for Java 8 cannot name.
     */
    public int storage() throws NoSuchFieldException {
        java.lang.reflect.Field f = java.io.File.class.getDeclaredField("path");
        f.setAccessible(true);
        return text.length();
    }

    /**
     * A reader of the text: an inner Reader of the project's own (as Commons Lang's
     * StrBuilder has one), reached as a Reader, whose inherited transferTo(Writer) a Java 8
     * build lacks.
     */
    public java.io.Reader reader() {
        return new LabelReader();
    }

    private final class LabelReader extends java.io.Reader {
        private int pos;

        @Override
        public int read(char[] buf, int off, int len) {
            if (pos >= text.length()) {
                return -1;
            }
            int n = Math.min(len, text.length() - pos);
            text.getChars(pos, pos + n, buf, off);
            pos += n;
            return n;
        }

        @Override
        public void close() {
        }
    }

    @Override
    public String toString() {
        return text;
    }
}
