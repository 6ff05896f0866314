/* The integration loop (SciPy's RungeKutta._step_impl, DOP853._estimate_error_norm,
   DOP853._dense_output_impl, select_initial_step, and solve_ivp's t_eval and
   events: find_active_events, handle_events and SciPy's brentq with
   xtol = rtol = 4 eps on the dense output).  out receives the state at each of the nt
   times t_out (increasing, the first the start), row by row.  It also
   watches ng event functions guards(t, y, p, g) (NULL: none), each crossing zero in
   its direction (−1 falling, +1 rising, 0 either way): it records up to max_events
   crossings (time, index, state) and stops at the first terminal one, having written the
   *n_out outputs up to it.  Returns 0, 7 at a terminal event, or a failure of
   companion.numerics.c_rhs._FAILURES (9 where SciPy's brentq raises: an event function
   with the same sign at both ends of a step).  max_step bounds the step as SciPy's does.
   Read and completed with the coefficients by companion/numerics/c_dop853.py. */
static double rms(int n, const double *v, const double *scale) {
    double s = 0; for (int i = 0; i < n; i++) { double r = v[i] / scale[i]; s += r * r; }
    return sqrt(s / n);
}
/* The state at which stage s is evaluated: y + h Σ_{j<s} A[s][j] k_j (rk_step, and the
   dense output's extra stages). */
static void stage_state(int n, int s, const double *ks, const double *y, double h,
                        double *out) {
    for (int i = 0; i < n; i++) {
        double dy = 0;
        for (int j = 0; j < s; j++) dy += ks[j * n + i] * DA[s][j];
        out[i] = y[i] + dy * h;
    }
}
static int all_finite(int n, const double *v) {
    for (int i = 0; i < n; i++) if (!isfinite(v[i])) return 0;
    return 1;
}
/* Dop853DenseOutput: the state at tt in the step from (t, y) of length h. */
static void dense(int n, const double *Fs, const double *y, double t, double h, double tt,
                  double *out) {
    double x = (tt - t) / h;
    for (int i = 0; i < n; i++) {
        double v = 0;
        for (int r = POWER - 1, k = 0; r >= 0; r--, k++) {
            v += Fs[r * n + i];
            v *= (k % 2 == 0) ? x : 1 - x;
        }
        out[i] = v + y[i];
    }
}
typedef int (*guard_fn)(double t, const double *y, const double *p, double *g);
/* Event function i at tt on the dense output (the guards' status ends the search). */
#define EVENT(tt, gi) do { dense(n, Fs, y, t, h, (tt), tmp); \
    int st_ = guards((tt), tmp, p, gv); if (st_) { status = st_; goto done; } \
    (gi) = gv[i_ev]; } while (0)
#define CALL(tt, yy, ff) do { int st_ = rhs((tt), (yy), p, (ff)); (*nfev)++; \
    if (st_) { status = st_; goto done; } \
    if (!all_finite(n, (ff))) { status = 3; goto done; } } while (0)

int dop853_events(int n, const double *x0, int nt, const double *t_out, double rtol,
                  double atol, const double *p, long max_steps, double *out, long *nfev,
                  double max_step, guard_fn guards, int ng, const double *direction,
                  const int *terminal, int max_events, int *n_out, int *n_events,
                  double *event_t, int *event_index, double *event_y) {
    int status = 0;
    /* stages, then y, y_new, f, tmp, scale, the dense output's POWER rows, g, g_new, gv,
       roots */
    double *ks = malloc(sizeof(double) * ((EXTENDED + 5 + POWER) * n + 4 * ng + 1));
    int *active = malloc(sizeof(int) * (ng + 1));
    if (!ks || !active) { free(ks); free(active); return 6; }
    double *y = ks + EXTENDED * n, *y_new = y + n, *f = y_new + n, *tmp = f + n;
    double *scale = tmp + n, *Fs = scale + n, *g = Fs + POWER * n, *g_new = g + ng;
    double *gv = g_new + ng, *roots = gv + ng;
    double t = t_out[0], t_bound = t_out[nt - 1], h = 0;
    *nfev = 0;
    *n_out = 1;
    *n_events = 0;
    memcpy(y, x0, sizeof(double) * n);
    memcpy(out, x0, sizeof(double) * n);  /* t_out[0] is the start */
    int next = 1;
    CALL(t, y, f);
    if (guards) { int st_ = guards(t, y, p, g); if (st_) { status = st_; goto done; } }
    /* select_initial_step (order 7 of the error estimator: exponent 1/8) */
    double h_abs, interval = fabs(t_bound - t);
    if (interval == 0.0) goto done;
    {
        for (int i = 0; i < n; i++) scale[i] = atol + fabs(y[i]) * rtol;
        double d0 = rms(n, y, scale), d1 = rms(n, f, scale);
        double h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
        if (h0 > interval) h0 = interval;
        for (int i = 0; i < n; i++) tmp[i] = y[i] + h0 * f[i];
        CALL(t + h0, tmp, y_new);
        for (int i = 0; i < n; i++) tmp[i] = y_new[i] - f[i];
        double d2 = rms(n, tmp, scale) / h0;
        double h1 = (d1 <= 1e-15 && d2 <= 1e-15) ? fmax(1e-6, h0 * 1e-3)
                    : pow(0.01 / fmax(d1, d2), 1.0 / 8.0);
        h_abs = fmin(fmin(fmin(100 * h0, h1), interval), max_step);
    }
    for (long steps = 0; t < t_bound; steps++) {
        if (steps >= max_steps) { status = 4; goto done; }
        double min_step = 10 * fabs(nextafter(t, INFINITY) - t);
        if (h_abs > max_step) h_abs = max_step;
        else if (h_abs < min_step) h_abs = min_step;
        int rejected = 0;
        double t_new;
        for (;;) {
            if (h_abs < min_step) { status = 5; goto done; }
            t_new = t + h_abs;
            if (t_new - t_bound > 0) t_new = t_bound;
            h = t_new - t;
            h_abs = fabs(h);
            /* rk_step */
            memcpy(ks, f, sizeof(double) * n);
            for (int s = 1; s < STAGES; s++) {
                stage_state(n, s, ks, y, h, tmp);
                CALL(t + DC[s] * h, tmp, ks + s * n);
            }
            for (int i = 0; i < n; i++) {
                double dy = 0;
                for (int j = 0; j < STAGES; j++) dy += ks[j * n + i] * DB[j];
                y_new[i] = y[i] + h * dy;
            }
            CALL(t + h, y_new, ks + STAGES * n);
            /* _estimate_error_norm */
            double e5 = 0, e3 = 0;
            for (int i = 0; i < n; i++) {
                double sc = atol + fmax(fabs(y[i]), fabs(y_new[i])) * rtol, a5 = 0, a3 = 0;
                for (int j = 0; j <= STAGES; j++) { a5 += ks[j * n + i] * DE5[j];
                                                    a3 += ks[j * n + i] * DE3[j]; }
                a5 /= sc; a3 /= sc; e5 += a5 * a5; e3 += a3 * a3;
            }
            double error = (e5 == 0 && e3 == 0) ? 0.0
                           : h_abs * e5 / sqrt((e5 + 0.01 * e3) * n);
            if (error < 1) {
                double factor = error == 0 ? 10.0 : fmin(10.0, 0.9 * pow(error, -1.0 / 8.0));
                if (rejected) factor = fmin(1.0, factor);
                h_abs *= factor;
                break;
            }
            h_abs *= fmax(0.2, 0.9 * pow(error, -1.0 / 8.0));
            rejected = 1;
        }
        int dense_ready = 0;
#define DENSE() do { if (!dense_ready) { dense_ready = 1; \
            for (int s = STAGES + 1; s < EXTENDED; s++) { \
                stage_state(n, s, ks, y, h, tmp); \
                CALL(t + DC[s] * h, tmp, ks + s * n); } \
            for (int i = 0; i < n; i++) { \
                double dy = y_new[i] - y[i]; \
                Fs[0 * n + i] = dy; \
                Fs[1 * n + i] = h * ks[i] - dy; \
                Fs[2 * n + i] = 2 * dy - h * (ks[STAGES * n + i] + ks[i]); \
                for (int r = 0; r < POWER - 3; r++) { \
                    double d = 0; \
                    for (int j = 0; j < EXTENDED; j++) d += DD[r][j] * ks[j * n + i]; \
                    Fs[(3 + r) * n + i] = h * d; } } } } while (0)
        double t_end = t_new;  /* where this step's outputs end: t_new, or a terminal event */
        int terminate = 0;
        if (guards) {
            int st_ = guards(t_new, y_new, p, g_new);
            if (st_) { status = st_; goto done; }
            int na = 0, first_terminal = -1;
            for (int i = 0; i < ng; i++) {  /* find_active_events */
                int up = g[i] <= 0 && g_new[i] >= 0, down = g[i] >= 0 && g_new[i] <= 0;
                if ((up && direction[i] > 0) || (down && direction[i] < 0)
                    || ((up || down) && direction[i] == 0)) active[na++] = i;
            }
            if (na) DENSE();
            for (int a = 0; a < na; a++) {  /* brentq(event(t, sol(t)), t, t_new) */
                int i_ev = active[a];
                double xpre = t, xcur = t_new, xblk = 0, fpre, fcur, fblk = 0;
                double spre = 0, scur = 0, sbis, delta, stry, dpre, dblk;
                const double tol = 4 * 2.220446049250313e-16;
                EVENT(xpre, fpre);
                EVENT(xcur, fcur);
                if (fpre == 0) xcur = xpre;  /* brentq returns an end where f is 0 */
                else if (fcur != 0 && signbit(fpre) == signbit(fcur)) {
                    status = 9;  /* brentq's "f(a) and f(b) must have different signs" */
                    goto done;
                }
                for (int it = 0; fpre != 0 && fcur != 0 && it < 100; it++) {
                    if (fpre != 0 && fcur != 0 && (signbit(fpre) != signbit(fcur))) {
                        xblk = xpre; fblk = fpre; spre = scur = xcur - xpre;
                    }
                    if (fabs(fblk) < fabs(fcur)) {
                        xpre = xcur; xcur = xblk; xblk = xpre;
                        fpre = fcur; fcur = fblk; fblk = fpre;
                    }
                    delta = (tol + tol * fabs(xcur)) / 2;
                    sbis = (xblk - xcur) / 2;
                    if (fcur == 0 || fabs(sbis) < delta) break;
                    if (fabs(spre) > delta && fabs(fcur) < fabs(fpre)) {
                        if (xpre == xblk) stry = -fcur * (xcur - xpre) / (fcur - fpre);
                        else {
                            dpre = (fpre - fcur) / (xpre - xcur);
                            dblk = (fblk - fcur) / (xblk - xcur);
                            stry = -fcur * (fblk * dblk - fpre * dpre)
                                   / (dblk * dpre * (fblk - fpre));
                        }
                        if (2 * fabs(stry) < fmin(fabs(spre), 3 * fabs(sbis) - delta)) {
                            spre = scur; scur = stry;
                        } else { spre = sbis; scur = sbis; }
                    } else { spre = sbis; scur = sbis; }
                    xpre = xcur; fpre = fcur;
                    xcur += fabs(scur) > delta ? scur : (sbis > 0 ? delta : -delta);
                    EVENT(xcur, fcur);
                }
                roots[a] = xcur;
                if (terminal[i_ev] && (first_terminal < 0 || xcur < roots[first_terminal]))
                    first_terminal = a;
            }
            if (first_terminal >= 0) {  /* handle_events: the crossings up to it, in time */
                terminate = 1;
                t_end = roots[first_terminal];
                for (int a = 1; a < na; a++)  /* a stable sort of the roots (na is tiny) */
                    for (int b = a; b > 0 && roots[b] < roots[b - 1]; b--) {
                        double r_ = roots[b]; roots[b] = roots[b - 1]; roots[b - 1] = r_;
                        int i_ = active[b]; active[b] = active[b - 1]; active[b - 1] = i_;
                    }
                int last = 0;
                while (!terminal[active[last]] || roots[last] > t_end) last++;
                na = last + 1;
            }
            for (int a = 0; a < na; a++) {
                if (*n_events >= max_events) { status = 8; goto done; }
                event_t[*n_events] = roots[a];
                event_index[*n_events] = active[a];
                dense(n, Fs, y, t, h, roots[a], event_y + *n_events * n);
                (*n_events)++;
            }
            memcpy(g, g_new, sizeof(double) * ng);
        }
        /* the outputs in (t, t_end]: _dense_output_impl and Dop853DenseOutput */
        if (next < nt && t_out[next] <= t_end) {
            DENSE();
            for (; next < nt && t_out[next] <= t_end; next++)
                dense(n, Fs, y, t, h, t_out[next], out + next * n);
        }
        *n_out = next;
        if (terminate) { status = 7; goto done; }
        t = t_new;
        memcpy(y, y_new, sizeof(double) * n);
        memcpy(f, ks + STAGES * n, sizeof(double) * n);
    }
done:
    free(ks);
    free(active);
    return status;
}
