package org.acme.grades;

/** A score from 0 to 100 and its letter. */
public class Grade {
    private final int score;

    public Grade(int score) {
        if (score < 0 || score > 100) {
            throw new IllegalArgumentException("score " + score);
        }
        this.score = score;
    }

    public String letter() {
        if (score >= 90) {
            return "A";
        }
        if (score >= 80) {
            return "B";
        }
        if (score >= 70) {
            return "C";
        }
        if (score >= 60) {
            return "D";
        }
        return "F";
    }

    public boolean passed() {
        return score >= 60;
    }

    public int score() {
        return score;
    }
}
