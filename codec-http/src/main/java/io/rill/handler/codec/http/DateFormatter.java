package io.rill.handler.codec.http;

/**
 * HTTP dates (RFC 9110 §5.6.7): formats the preferred IMF-fixdate
 * ({@code Sun, 06 Nov 1994 08:49:37 GMT}) and parses it as well as the two obsolete forms a
 * recipient must accept, RFC 850 ({@code Sunday, 06-Nov-94 08:49:37 GMT}) and asctime
 * ({@code Sun Nov  6 08:49:37 1994}).
 *
 * <p>Calendar arithmetic is done on day numbers with the proleptic Gregorian civil-date formulas,
 * with no {@code Calendar}, time zone or formatter objects: formatting allocates only the result,
 * and parsing nothing but the result.
 */
public final class DateFormatter {

    private static final String[] DAYS = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    private static final String[] MONTHS = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private DateFormatter() {
    }

    /**
     * {@code epochMillis} as an IMF-fixdate; years outside 0-9999 are clamped into it.
     *
     * @param epochMillis milliseconds since the epoch
     * @return e.g. {@code Sun, 06 Nov 1994 08:49:37 GMT}
     */
    public static String format(long epochMillis) {
        char[] out = new char[29];
        formatInto(epochMillis, out);
        return new String(out);
    }

    /** Writes the 29 characters of the IMF-fixdate for {@code epochMillis} into {@code out}. */
    static void formatInto(long epochMillis, char[] out) {
        long days = Math.floorDiv(epochMillis, MILLIS_PER_DAY);
        int secondOfDay = (int) (Math.floorMod(epochMillis, MILLIS_PER_DAY) / 1000);
        long civil = civilFromDays(days);
        int year = (int) Math.max(0, Math.min(9999, civil >> 9));
        int month = (int) (civil >> 5 & 0xf);
        int day = (int) (civil & 0x1f);
        String dayName = DAYS[(int) Math.floorMod(days + 4, 7)]; // 1970-01-01 was a Thursday
        out[0] = dayName.charAt(0);
        out[1] = dayName.charAt(1);
        out[2] = dayName.charAt(2);
        out[3] = ',';
        out[4] = ' ';
        twoDigits(out, 5, day);
        out[7] = ' ';
        String monthName = MONTHS[month - 1];
        out[8] = monthName.charAt(0);
        out[9] = monthName.charAt(1);
        out[10] = monthName.charAt(2);
        out[11] = ' ';
        twoDigits(out, 12, year / 100);
        twoDigits(out, 14, year % 100);
        out[16] = ' ';
        twoDigits(out, 17, secondOfDay / 3600);
        out[19] = ':';
        twoDigits(out, 20, secondOfDay / 60 % 60);
        out[22] = ':';
        twoDigits(out, 23, secondOfDay % 60);
        out[25] = ' ';
        out[26] = 'G';
        out[27] = 'M';
        out[28] = 'T';
    }

    private static void twoDigits(char[] out, int at, int value) {
        out[at] = (char) ('0' + value / 10);
        out[at + 1] = (char) ('0' + value % 10);
    }

    /** Year, month and day of a day number, packed as {@code year << 9 | month << 5 | day}. */
    static long civilFromDays(long days) {
        long z = days + 719_468; // days since 0000-03-01
        long era = Math.floorDiv(z, 146_097);
        long dayOfEra = z - era * 146_097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long mp = (5 * dayOfYear + 2) / 153; // March = 0
        long day = dayOfYear - (153 * mp + 2) / 5 + 1;
        long month = mp < 10 ? mp + 3 : mp - 9;
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        return year << 9 | month << 5 | day;
    }

    /** The day number of a proleptic Gregorian date. */
    static long daysFromCivil(long year, int month, int day) {
        long y = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(y, 400);
        long yearOfEra = y - era * 400;
        long dayOfYear = (153L * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
        long dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return era * 146_097 + dayOfEra - 719_468;
    }

    /**
     * Parses an HTTP date in any of its three forms; returns epoch milliseconds, or null if
     * {@code text} is not a valid date (RFC 9110 says to treat such a value as absent).
     *
     * @param text an IMF-fixdate, an RFC 850 date or an asctime date
     * @return the time in epoch milliseconds, or null
     */
    public static Long parse(CharSequence text) {
        if (text == null) {
            return null;
        }
        String s = text.toString().trim();
        int comma = s.indexOf(',');
        if (comma == 3 && s.length() == 29) {
            return imfFixdate(s);
        }
        if (comma > 3) {
            return rfc850(s, comma);
        }
        return comma < 0 && s.length() == 24 ? asctime(s) : null;
    }

    /** {@code Sun, 06 Nov 1994 08:49:37 GMT} */
    private static Long imfFixdate(String s) {
        if (s.charAt(4) != ' ' || s.charAt(7) != ' ' || s.charAt(11) != ' ' || s.charAt(16) != ' '
                || !s.endsWith(" GMT")) {
            return null;
        }
        return toMillis(number(s, 12, 4), month(s, 8), number(s, 5, 2), s, 17);
    }

    /** {@code Sunday, 06-Nov-94 08:49:37 GMT}: a two-digit year more than 50 years ahead is in the past (RFC 9110). */
    private static Long rfc850(String s, int comma) {
        int at = comma + 2;
        if (s.length() != at + 22 || s.charAt(comma + 1) != ' ' || s.charAt(at + 2) != '-' || s.charAt(at + 6) != '-'
                || s.charAt(at + 9) != ' ' || !s.endsWith(" GMT")) {
            return null;
        }
        int yy = number(s, at + 7, 2);
        if (yy < 0) {
            return null;
        }
        int thisYear = (int) (civilFromDays(Math.floorDiv(System.currentTimeMillis(), MILLIS_PER_DAY)) >> 9);
        int year = thisYear / 100 * 100 + yy;
        if (year > thisYear + 50) {
            year -= 100;
        }
        return toMillis(year, month(s, at + 3), number(s, at, 2), s, at + 10);
    }

    /** {@code Sun Nov  6 08:49:37 1994} (the day is space-padded). */
    private static Long asctime(String s) {
        if (s.charAt(3) != ' ' || s.charAt(7) != ' ' || s.charAt(10) != ' ' || s.charAt(19) != ' ') {
            return null;
        }
        int day = s.charAt(8) == ' ' ? number(s, 9, 1) : number(s, 8, 2);
        return toMillis(number(s, 20, 4), month(s, 4), day, s, 11);
    }

    /** Checks the fields and reads {@code HH:MM:SS} at {@code time}. */
    private static Long toMillis(int year, int month, int day, String s, int time) {
        if (s.charAt(time + 2) != ':' || s.charAt(time + 5) != ':') {
            return null;
        }
        int hour = number(s, time, 2);
        int minute = number(s, time + 3, 2);
        int second = number(s, time + 6, 2);
        if (year < 0 || month < 1 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0 || minute > 59
                || second < 0 || second > 60) {
            return null;
        }
        long days = daysFromCivil(year, month, day);
        if ((int) (civilFromDays(days) & 0x1f) != day) {
            return null; // e.g. 31 Feb
        }
        return days * MILLIS_PER_DAY + (hour * 3600L + minute * 60L + Math.min(second, 59)) * 1000L;
    }

    private static int number(String s, int from, int digits) {
        int v = 0;
        for (int i = from; i < from + digits; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    private static int month(String s, int at) {
        for (int m = 0; m < 12; m++) {
            if (s.regionMatches(at, MONTHS[m], 0, 3)) {
                return m + 1;
            }
        }
        return -1;
    }
}
