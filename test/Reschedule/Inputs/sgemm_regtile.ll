; The device code of examples/reschedule/sgemm_regtile.cu as tcgen reschedule --emit=llvm
; writes it (clang-22 -O1 -Xclang -disable-llvm-passes, then the cleanup
; pass list): the input of the lit tests that do not run clang.
; ModuleID = 'examples/reschedule/sgemm_regtile.cu'
source_filename = "examples/reschedule/sgemm_regtile.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.__cuda_builtin_threadIdx_t = type { i8 }
%struct.__cuda_builtin_blockIdx_t = type { i8 }

@_ZZ18sgemmRegisterTilesPfPKfS1_iiiE2As = internal addrspace(3) global [32 x [16 x float]] undef, align 4
@_ZZ18sgemmRegisterTilesPfPKfS1_iiiE2Bs = internal addrspace(3) global [16 x [32 x float]] undef, align 4
@threadIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_threadIdx_t, align 1
@blockIdx = extern_weak dso_local addrspace(1) global %struct.__cuda_builtin_blockIdx_t, align 1

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z18sgemmRegisterTilesPfPKfS1_iii(ptr noundef %0, ptr noundef %1, ptr noundef %2, i32 noundef %3, i32 noundef %4, i32 noundef %5) #0 {
  %7 = call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %8 = call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %9 = call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %10 = mul i32 %9, 32
  %11 = call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %12 = mul i32 %11, 32
  %13 = mul nsw i32 %8, 16
  %14 = add nsw i32 %13, %7
  br label %15

15:                                               ; preds = %84, %6
  %.0 = phi i32 [ 0, %6 ], [ %85, %84 ]
  %.sroa.12.0 = phi float [ 0.000000e+00, %6 ], [ %.sroa.12.1, %84 ]
  %.sroa.9.0 = phi float [ 0.000000e+00, %6 ], [ %.sroa.9.1, %84 ]
  %.sroa.6.0 = phi float [ 0.000000e+00, %6 ], [ %.sroa.6.1, %84 ]
  %.sroa.0.0 = phi float [ 0.000000e+00, %6 ], [ %.sroa.0.1, %84 ]
  %16 = icmp slt i32 %.0, %5
  br i1 %16, label %17, label %86

17:                                               ; preds = %15, %19
  %.070 = phi i32 [ %33, %19 ], [ %14, %15 ]
  %18 = icmp slt i32 %.070, 512
  br i1 %18, label %19, label %34

19:                                               ; preds = %17
  %20 = sdiv i32 %.070, 16
  %21 = add nsw i32 %10, %20
  %22 = mul nsw i32 %21, %5
  %23 = add nsw i32 %22, %.0
  %24 = srem i32 %.070, 16
  %25 = add nsw i32 %23, %24
  %26 = sext i32 %25 to i64
  %27 = getelementptr inbounds float, ptr %1, i64 %26
  %28 = load float, ptr %27, align 4, !tbaa !11
  %29 = sext i32 %20 to i64
  %30 = getelementptr inbounds [32 x [16 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ18sgemmRegisterTilesPfPKfS1_iiiE2As to ptr), i64 0, i64 %29
  %31 = sext i32 %24 to i64
  %32 = getelementptr inbounds [16 x float], ptr %30, i64 0, i64 %31
  store float %28, ptr %32, align 4, !tbaa !11
  %33 = add nsw i32 %.070, 256
  br label %17, !llvm.loop !13

34:                                               ; preds = %17, %36
  %.069 = phi i32 [ %50, %36 ], [ %14, %17 ]
  %35 = icmp slt i32 %.069, 512
  br i1 %35, label %36, label %51

36:                                               ; preds = %34
  %37 = sdiv i32 %.069, 32
  %38 = add nsw i32 %.0, %37
  %39 = mul nsw i32 %38, %4
  %40 = add nsw i32 %39, %12
  %41 = srem i32 %.069, 32
  %42 = add nsw i32 %40, %41
  %43 = sext i32 %42 to i64
  %44 = getelementptr inbounds float, ptr %2, i64 %43
  %45 = load float, ptr %44, align 4, !tbaa !11
  %46 = sext i32 %37 to i64
  %47 = getelementptr inbounds [16 x [32 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ18sgemmRegisterTilesPfPKfS1_iiiE2Bs to ptr), i64 0, i64 %46
  %48 = sext i32 %41 to i64
  %49 = getelementptr inbounds [32 x float], ptr %47, i64 0, i64 %48
  store float %45, ptr %49, align 4, !tbaa !11
  %50 = add nsw i32 %.069, 256
  br label %34, !llvm.loop !16

51:                                               ; preds = %34
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %52

52:                                               ; preds = %54, %51
  %.068 = phi i32 [ 0, %51 ], [ %83, %54 ]
  %.sroa.12.1 = phi float [ %.sroa.12.0, %51 ], [ %82, %54 ]
  %.sroa.9.1 = phi float [ %.sroa.9.0, %51 ], [ %80, %54 ]
  %.sroa.6.1 = phi float [ %.sroa.6.0, %51 ], [ %78, %54 ]
  %.sroa.0.1 = phi float [ %.sroa.0.0, %51 ], [ %76, %54 ]
  %53 = icmp slt i32 %.068, 16
  br i1 %53, label %54, label %84

54:                                               ; preds = %52
  %55 = mul nsw i32 %8, 2
  %56 = sext i32 %55 to i64
  %57 = getelementptr inbounds [32 x [16 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ18sgemmRegisterTilesPfPKfS1_iiiE2As to ptr), i64 0, i64 %56
  %58 = sext i32 %.068 to i64
  %59 = getelementptr inbounds [16 x float], ptr %57, i64 0, i64 %58
  %60 = load float, ptr %59, align 4, !tbaa !11
  %61 = add nsw i32 %55, 1
  %62 = sext i32 %61 to i64
  %63 = getelementptr inbounds [32 x [16 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ18sgemmRegisterTilesPfPKfS1_iiiE2As to ptr), i64 0, i64 %62
  %64 = getelementptr inbounds [16 x float], ptr %63, i64 0, i64 %58
  %65 = load float, ptr %64, align 4, !tbaa !11
  %66 = getelementptr inbounds [16 x [32 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ18sgemmRegisterTilesPfPKfS1_iiiE2Bs to ptr), i64 0, i64 %58
  %67 = mul nsw i32 %7, 2
  %68 = sext i32 %67 to i64
  %69 = getelementptr inbounds [32 x float], ptr %66, i64 0, i64 %68
  %70 = load float, ptr %69, align 4, !tbaa !11
  %71 = add nsw i32 %67, 1
  %72 = sext i32 %71 to i64
  %73 = getelementptr inbounds [32 x float], ptr %66, i64 0, i64 %72
  %74 = load float, ptr %73, align 4, !tbaa !11
  %75 = fmul contract float %60, %70
  %76 = fadd contract float %.sroa.0.1, %75
  %77 = fmul contract float %60, %74
  %78 = fadd contract float %.sroa.6.1, %77
  %79 = fmul contract float %65, %70
  %80 = fadd contract float %.sroa.9.1, %79
  %81 = fmul contract float %65, %74
  %82 = fadd contract float %.sroa.12.1, %81
  %83 = add nsw i32 %.068, 1
  br label %52, !llvm.loop !17

84:                                               ; preds = %52
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %85 = add nsw i32 %.0, 16
  br label %15, !llvm.loop !18

86:                                               ; preds = %15
  %87 = mul nsw i32 %8, 2
  %88 = add nsw i32 %10, %87
  %89 = mul nsw i32 %7, 2
  %90 = add nsw i32 %12, %89
  %91 = mul nsw i32 %88, %4
  %92 = add nsw i32 %91, %90
  %93 = sext i32 %92 to i64
  %94 = getelementptr inbounds float, ptr %0, i64 %93
  store float %.sroa.0.0, ptr %94, align 4, !tbaa !11
  %95 = add nsw i32 %92, 1
  %96 = sext i32 %95 to i64
  %97 = getelementptr inbounds float, ptr %0, i64 %96
  store float %.sroa.6.0, ptr %97, align 4, !tbaa !11
  %98 = add nsw i32 %88, 1
  %99 = mul nsw i32 %98, %4
  %100 = add nsw i32 %99, %90
  %101 = sext i32 %100 to i64
  %102 = getelementptr inbounds float, ptr %0, i64 %101
  store float %.sroa.9.0, ptr %102, align 4, !tbaa !11
  %103 = add nsw i32 %100, 1
  %104 = sext i32 %103 to i64
  %105 = getelementptr inbounds float, ptr %0, i64 %104
  store float %.sroa.12.0, ptr %105, align 4, !tbaa !11
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(ptr captures(none)) #1

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(ptr captures(none)) #1

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #3

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #4

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y() #4

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #4

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #4

attributes #0 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90a" "target-features"="+ptx88,+sm_90a" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #3 = { convergent nocallback nounwind }
attributes #4 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4, !5}
!llvm.errno.tbaa = !{!6}
!nvvmir.version = !{!10}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 12, i32 9]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!5 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!6 = !{!7, !7, i64 0}
!7 = !{!"int", !8, i64 0}
!8 = !{!"omnipotent char", !9, i64 0}
!9 = !{!"Simple C++ TBAA"}
!10 = !{i32 2, i32 0}
!11 = !{!12, !12, i64 0}
!12 = !{!"float", !8, i64 0}
!13 = distinct !{!13, !14, !15}
!14 = !{!"llvm.loop.mustprogress"}
!15 = !{!"llvm.loop.unroll.disable"}
!16 = distinct !{!16, !14, !15}
!17 = distinct !{!17, !14, !15}
!18 = distinct !{!18, !14, !15}
